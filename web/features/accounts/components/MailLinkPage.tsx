import { Alert, Anchor, Center, Container, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { VERIFY_TOKEN_INVALID } from '../../../../common/contracts/accounts-constants';
import { BAD_UNSUBSCRIBE_LINK } from '../../../../common/contracts/mail-constants';
import { errorMessage } from '../../../lib/api';
import { authKeys } from '../../../lib/query-keys';
import { useSession } from '../../../lib/session';
import { usePageTitle } from '../../../lib/use-page-title';
import { mailLinkQuery } from '../api';

const PAGES = {
  'verify-email': {
    title: 'Confirm your e-mail address',
    working: 'Confirming your address...',
    invalid: VERIFY_TOKEN_INVALID,
    done: 'Address confirmed',
  },
  unsubscribe: {
    title: 'Status e-mails',
    working: 'Turning status e-mails off...',
    invalid: BAD_UNSUBSCRIBE_LINK,
    done: 'Unsubscribed',
  },
} as const;

/**
 * /verify-email and /unsubscribe: opening the link from the mail is the one click; the page uses
 * the link's token at once, signed in or not (docs/product/accounts-and-sessions.md, mail.md).
 */
export function MailLinkPage({ purpose }: { purpose: keyof typeof PAGES }) {
  const text = PAGES[purpose];
  usePageTitle(text.title);
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const { user } = useSession();
  const result = useQuery(mailLinkQuery(purpose, token));
  // The account changed (confirmed, or status mails off): a signed-in profile must show it.
  const queryClient = useQueryClient();
  useEffect(() => {
    if (result.isSuccess) void queryClient.invalidateQueries({ queryKey: authKeys.all });
  }, [result.isSuccess, queryClient]);

  const next =
    purpose === 'unsubscribe' ? (
      <Text size="sm">
        Changed your mind? Turn them on again in your{' '}
        <Anchor component={Link} to="/profile" fw={600}>
          profile
        </Anchor>
        .
      </Text>
    ) : (
      <Text size="sm">
        <Anchor component={Link} to={user ? '/profile' : '/login'} fw={600}>
          {user ? 'Back to your profile' : 'Log in'}
        </Anchor>
      </Text>
    );

  return (
    <Container size={520} py={{ base: 40, md: 72 }}>
      <Paper withBorder radius="lg" shadow="sm" p={{ base: 'lg', sm: 'xl' }}>
        <Stack gap="md">
          <Title order={1} size="h2">
            {text.title}
          </Title>
          {!token ? (
            <Alert color="red" title="This link cannot be used" role="alert">
              {text.invalid}
            </Alert>
          ) : result.isPending ? (
            <Center role="status" py="md">
              <Group gap="sm">
                <Loader size="sm" aria-hidden="true" />
                <Text>{text.working}</Text>
              </Group>
            </Center>
          ) : result.isError ? (
            <Alert color="red" title="This link cannot be used" role="alert">
              {errorMessage(result.error, text.invalid)}
            </Alert>
          ) : (
            <>
              <Alert color="teal" title={text.done} role="status">
                {result.data.message}
              </Alert>
              {next}
            </>
          )}
        </Stack>
      </Paper>
    </Container>
  );
}
