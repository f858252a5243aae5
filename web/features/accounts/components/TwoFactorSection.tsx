import {
  Alert,
  Badge,
  Button,
  Code,
  Group,
  Image,
  Paper,
  PasswordInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { type FormEvent, useState } from 'react';
import type { AuthUserResponse } from '../../../../common/contracts/accounts';
import { TWO_FACTOR_SETUP_REQUIRED, type TotpSetupResponse } from '../../../../common/contracts/two-factor';
import { errorMessage, serverFieldErrors } from '../../../lib/api';
import { toast } from '../../../lib/toast';
import { useTwoFactorSettings } from '../api';
import { RecoveryCodesCard } from './RecoveryCodesCard';

/** One field's value and error, the error cleared as the person types. */
function useField() {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  return {
    value,
    setError,
    reset: () => setValue(''),
    props: {
      value,
      error,
      onChange: (e: { currentTarget: { value: string } }) => {
        setValue(e.currentTarget.value);
        setError(null);
      },
    },
  };
}

/** A server refusal shown beside the field it names (the password or the code), else beside `fallback`. */
function showRefusal(err: unknown, fields: Record<string, ReturnType<typeof useField>>, fallback: string) {
  const byField = serverFieldErrors(err);
  const named = Object.keys(byField).filter((k) => k in fields);
  if (named.length) for (const k of named) fields[k]?.setError(byField[k] ?? null);
  else fields[fallback]?.setError(errorMessage(err, 'Please try again'));
}

// Labelled "Password" (not "Current password", the password-change form's field on the same page).
const passwordProps = {
  label: 'Password',
  name: 'password',
  autoComplete: 'current-password',
  withAsterisk: true,
  visibilityToggleButtonProps: { 'aria-label': 'Show or hide password' },
} as const;

/**
 * Two-factor sign-in in the profile (docs/product/accounts-and-sessions.md): set up with a QR code or
 * the key typed by hand, confirm with a code, see the recovery codes once; make new recovery codes;
 * turn off with a code. Every change asks for the current password, so a session left open
 * somewhere cannot plant or remove a second factor.
 */
export function TwoFactorSection({ user, token }: { user: AuthUserResponse; token: string | null }) {
  const { setup, enable, disable, renewRecoveryCodes } = useTwoFactorSettings(token);
  const [pending, setPending] = useState<TotpSetupResponse | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const code = useField();
  const password = useField();
  const renewPassword = useField();

  const start = (e: FormEvent) => {
    e.preventDefault();
    if (!password.value) return password.setError('Password is required');
    setup.mutate(
      { password: password.value },
      {
        onSuccess: setPending,
        onError: (err) => showRefusal(err, { password }, 'password'),
      },
    );
  };

  const confirm = (e: FormEvent) => {
    e.preventDefault();
    enable.mutate(
      { code: code.value, password: password.value },
      {
        onSuccess: (answer) => {
          setRecoveryCodes(answer.recoveryCodes);
          setPending(null);
          code.reset();
          password.reset();
          toast.success('Two-factor sign-in is on');
        },
        onError: (err) => showRefusal(err, { code, password }, 'code'),
      },
    );
  };

  const renew = (e: FormEvent) => {
    e.preventDefault();
    if (!renewPassword.value) return renewPassword.setError('Password is required');
    renewRecoveryCodes.mutate(
      { password: renewPassword.value },
      {
        onSuccess: (answer) => {
          setRecoveryCodes(answer.recoveryCodes);
          renewPassword.reset();
          toast.success('New recovery codes are ready');
        },
        onError: (err) => showRefusal(err, { password: renewPassword }, 'password'),
      },
    );
  };

  const turnOff = (e: FormEvent) => {
    e.preventDefault();
    disable.mutate(
      { password: password.value, code: code.value },
      {
        onSuccess: () => {
          password.reset();
          code.reset();
          toast.success('Two-factor sign-in is off');
        },
        onError: (err) => showRefusal(err, { code, password }, 'code'),
      },
    );
  };

  return (
    <Paper withBorder radius="lg" shadow="sm" p={{ base: 'md', sm: 'xl' }} mt="lg" id="two-factor">
      <Stack gap="md">
        <Group justify="space-between" gap="sm">
          <Title order={2} size="h3" id="two-factor-title">
            Two-factor sign-in
          </Title>
          <Badge color={user.twoFactorEnabled ? 'teal.9' : 'gray.7'} variant="filled">
            {user.twoFactorEnabled ? 'On' : 'Off'}
          </Badge>
        </Group>
        {user.twoFactorSetupRequired && (
          <Alert color="orange" title="Required by the lab" role="alert">
            {TWO_FACTOR_SETUP_REQUIRED}
          </Alert>
        )}
        {recoveryCodes && (
          <RecoveryCodesCard codes={recoveryCodes} email={user.email} onDone={() => setRecoveryCodes(null)} />
        )}
        {!user.twoFactorEnabled && !pending && (
          <form onSubmit={start} noValidate aria-label="Set up two-factor sign-in">
            <Stack gap="sm" maw={420}>
              <Text c="dark.3">
                Sign in with a code from an authenticator app as well as your password. To start, confirm your
                current password.
              </Text>
              <PasswordInput {...passwordProps} {...password.props} />
              <Group>
                <Button type="submit" loading={setup.isPending}>
                  Set up two-factor sign-in
                </Button>
              </Group>
            </Stack>
          </form>
        )}
        {!user.twoFactorEnabled && pending && (
          <form onSubmit={confirm} noValidate aria-labelledby="two-factor-title">
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
              <Stack gap="xs" align="center">
                <Image
                  src={pending.qrCode}
                  alt="QR code to scan with your authenticator app"
                  w={200}
                  h={200}
                />
              </Stack>
              <Stack gap="sm">
                <Text size="sm">Scan the QR code with your authenticator app, or type this key into it:</Text>
                <Code block data-testid="totp-secret" style={{ wordBreak: 'break-all' }}>
                  {pending.secret}
                </Code>
                <TextInput
                  label="Code from the app"
                  name="code"
                  autoComplete="one-time-code"
                  inputMode="numeric"
                  withAsterisk
                  {...code.props}
                />
                <Group gap="sm">
                  <Button type="submit" loading={enable.isPending}>
                    Turn on
                  </Button>
                  <Button
                    variant="subtle"
                    onClick={() => {
                      setPending(null);
                      password.reset();
                    }}
                  >
                    Cancel
                  </Button>
                </Group>
              </Stack>
            </SimpleGrid>
          </form>
        )}
        {user.twoFactorEnabled && (
          <form onSubmit={renew} noValidate aria-label="Make new recovery codes">
            <Stack gap="sm" maw={420}>
              <Title order={3} size="h5">
                Recovery codes
              </Title>
              <Text size="sm" c="dark.3">
                Lost or used up your recovery codes? Make ten new ones: the old ones stop working.
              </Text>
              <PasswordInput {...passwordProps} id="renew-password" {...renewPassword.props} />
              <Group>
                <Button type="submit" variant="light" loading={renewRecoveryCodes.isPending}>
                  Make new recovery codes
                </Button>
              </Group>
            </Stack>
          </form>
        )}
        {user.twoFactorEnabled && (
          <form onSubmit={turnOff} noValidate aria-label="Turn off two-factor sign-in">
            <Stack gap="sm" maw={420}>
              <Title order={3} size="h5">
                Turn off
              </Title>
              <Text size="sm" c="dark.3">
                To turn it off, enter your password and a code from the app (or a recovery code).
              </Text>
              <PasswordInput {...passwordProps} id="disable-password" {...password.props} />
              <TextInput label="Code" name="code" autoComplete="one-time-code" {...code.props} />
              <Group>
                <Button type="submit" color="red" variant="outline" loading={disable.isPending}>
                  Turn off two-factor sign-in
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Stack>
    </Paper>
  );
}
