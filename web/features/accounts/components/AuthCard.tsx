import { Anchor, Button, Container, Paper, Stack, Text, Title } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';
import { Link } from 'react-router';

/**
 * The frame of the sign-in pages (/login, /register, the second factor, the password reset): a
 * heading, the form, and a link to the other page.
 */
export function AuthCard({
  title,
  lead,
  children,
  footer,
}: {
  title: string;
  lead: string;
  children: ReactNode;
  footer?: { text: string; link: string; to: string };
}) {
  return (
    <Container size={460} py={{ base: 40, md: 72 }}>
      <Paper withBorder radius="lg" shadow="sm" p={{ base: 'lg', sm: 'xl' }}>
        <Stack gap={4} mb="lg">
          <Title order={1} size="h2" id="auth-title">
            {title}
          </Title>
          <Text c="dark.3">{lead}</Text>
        </Stack>
        {children}
        {footer && (
          <Text ta="center" size="sm" mt="lg">
            {footer.text}{' '}
            <Anchor component={Link} to={footer.to} fw={600}>
              {footer.link}
            </Anchor>
          </Text>
        )}
      </Paper>
    </Container>
  );
}

/**
 * The form inside an AuthCard, named by its heading: the fields, the full-width submit button
 * (dots while `pending`), then what goes under it.
 */
export function AuthForm({
  onSubmit,
  submitLabel,
  pending,
  spaced = false,
  children,
  below,
}: {
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  submitLabel: string;
  pending: boolean;
  /** Extra room above the button, under a longer form (login, sign-up). */
  spaced?: boolean;
  children: ReactNode;
  below?: ReactNode;
}) {
  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="auth-title">
      <Stack gap="md">
        {children}
        <Button
          type="submit"
          fullWidth
          loading={pending}
          loaderProps={{ type: 'dots' }}
          mt={spaced ? 'xs' : undefined}
        >
          {submitLabel}
        </Button>
        {below}
      </Stack>
    </form>
  );
}
