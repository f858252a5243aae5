import { Button, Divider, Group, Paper, SimpleGrid, Stack, Switch, Text, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconCircleCheck, IconMailExclamation } from '@tabler/icons-react';
import { useState } from 'react';
import {
  type AuthUserResponse,
  type ChangePasswordForm,
  changePasswordForm,
} from '../../../../common/contracts/accounts';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { errorMessage } from '../../../lib/api';
import { focusFirstError, validateOnBlurAfterRelease } from '../../../lib/forms';
import { useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { useChangePassword, useMailPreferences, useResendVerification, useSignOutEverywhere } from '../api';
import { showSubmitError } from '../form-errors';
import { NewPasswordFields, PasswordField } from './PasswordField';

export const STATUS_MAIL_LABEL = "E-mail me when my sample's status changes";

const section = (id: string, title: string, lead: string) => (
  <Stack gap={2}>
    <Title order={2} size="h4" id={id}>
      {title}
    </Title>
    <Text size="sm" c="dark.3">
      {lead}
    </Text>
  </Stack>
);

/** The address's confirmation and "Send the link again" (docs/product/accounts-and-sessions.md). */
function EmailConfirmation({ user }: { user: AuthUserResponse }) {
  const resend = useResendVerification();
  return (
    <Group gap="sm" wrap="wrap">
      {user.emailVerified ? (
        <Group gap={6} c="teal.9">
          <IconCircleCheck size={18} aria-hidden="true" />
          <Text size="sm" fw={600}>
            E-mail address confirmed
          </Text>
        </Group>
      ) : (
        <>
          <Group gap={6}>
            <IconMailExclamation size={18} color="var(--mantine-color-orange-8)" aria-hidden="true" />
            <Text size="sm" fw={600}>
              E-mail address not confirmed
            </Text>
          </Group>
          <Button
            size="xs"
            variant="light"
            loading={resend.isPending}
            onClick={() =>
              resend.mutate(undefined, {
                onSuccess: ({ message }) => toast.success('Link sent', message),
                onError: (err) => toast.error('Error', errorMessage(err, 'Failed to send the link')),
              })
            }
          >
            Send the link again
          </Button>
        </>
      )}
    </Group>
  );
}

function ChangePassword() {
  const session = useSession();
  const change = useChangePassword();
  const form = useForm<ChangePasswordForm>({
    mode: 'controlled',
    initialValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
    validate: schemaResolver(changePasswordForm, { sync: true }),
    ...validateOnBlurAfterRelease<ChangePasswordForm>(),
  });
  const submit = form.onSubmit(async ({ currentPassword, newPassword }) => {
    try {
      const { token } = await change.mutateAsync({ currentPassword, newPassword });
      // The fresh token keeps this browser signed in; every other session has ended.
      await session.login(token);
      form.reset();
      toast.success('Password changed', 'Other devices have been signed out.');
    } catch (err) {
      showSubmitError(form, err, {
        title: 'Password not changed',
        fallback: 'Failed to change the password',
      });
    }
  }, focusFirstError);
  return (
    <form onSubmit={submit} noValidate aria-labelledby="password-title">
      <Stack gap="sm">
        {section('password-title', 'Password', 'Changing it signs out every other device.')}
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
          <PasswordField
            label="Current password"
            name="currentPassword"
            what="current password"
            autoComplete="current-password"
            {...form.getInputProps('currentPassword')}
          />
          <NewPasswordFields
            name="newPassword"
            password={form.getInputProps('newPassword')}
            confirmation={form.getInputProps('confirmPassword')}
          />
        </SimpleGrid>
        <Group justify="flex-end">
          <Button type="submit" variant="light" loading={change.isPending}>
            Change password
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function SignOutEverywhere() {
  const session = useSession();
  const signOut = useSignOutEverywhere();
  const [asking, setAsking] = useState(false);
  const confirm = () =>
    signOut.mutate(undefined, {
      onSuccess: async () => {
        setAsking(false);
        toast.success('Signed out everywhere', 'Every device, this one included, has been signed out.');
        await session.logout({ serverEnded: true });
      },
      onError: (err) => toast.error('Error', errorMessage(err, 'Failed to sign out everywhere')),
    });
  return (
    <Stack gap="sm">
      {section(
        'sessions-title',
        'Sessions',
        'Lost a device or signed in on a shared computer? End every session of your account.',
      )}
      <Group>
        <Button variant="outline" color="red" onClick={() => setAsking(true)}>
          Sign out everywhere
        </Button>
      </Group>
      <ConfirmDialog
        opened={asking}
        title="Sign out everywhere?"
        confirmLabel="Sign out everywhere"
        loading={signOut.isPending}
        onConfirm={confirm}
        onClose={() => setAsking(false)}
      >
        Every device signed in to your account, this one included, will be signed out. You can log in again
        with your password.
      </ConfirmDialog>
    </Stack>
  );
}

/** The profile's second panel: address confirmation, status mails, password, sessions. */
export function AccountSecurity({ user, token }: { user: AuthUserResponse; token: string | null }) {
  const preferences = useMailPreferences(token);
  return (
    <Paper withBorder radius="lg" shadow="sm" p={{ base: 'md', sm: 'xl' }} mt="lg">
      <Stack gap="lg">
        <Stack gap="sm">
          {section('mail-title', 'E-mail', `Mails go to ${user.email}.`)}
          <EmailConfirmation user={user} />
          <Switch
            label={STATUS_MAIL_LABEL}
            description="Receipts, reports and account mails are always sent."
            checked={user.notifyStatusChanges}
            disabled={preferences.isPending}
            onChange={(event) =>
              preferences.mutate(event.currentTarget.checked, {
                onSuccess: (saved) =>
                  toast.success(saved.notifyStatusChanges ? 'Status e-mails on' : 'Status e-mails off'),
                onError: (err) => toast.error('Error', errorMessage(err, 'Failed to save the preference')),
              })
            }
          />
        </Stack>
        <Divider />
        <ChangePassword />
        <Divider />
        <SignOutEverywhere />
      </Stack>
    </Paper>
  );
}
