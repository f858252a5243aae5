import {
  Alert,
  Badge,
  Button,
  Code,
  Group,
  Image,
  List,
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
import { errorMessage } from '../../../lib/api';
import { toast } from '../../../lib/toast';
import { useTwoFactorSettings } from '../api';

/** One code field's value and error, cleared as the person types. */
function useCodeField() {
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

/**
 * Two-factor sign-in in the profile (docs/product/accounts-and-sessions.md): set up with a QR code or
 * the key typed by hand, confirm with a code, see the recovery codes once; turn off with the password
 * and a code.
 */
export function TwoFactorSection({ user, token }: { user: AuthUserResponse; token: string | null }) {
  const { setup, enable, disable } = useTwoFactorSettings(token);
  const [pending, setPending] = useState<TotpSetupResponse | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const code = useCodeField();
  const [password, setPassword] = useState('');

  const start = () =>
    setup.mutate(undefined, {
      onSuccess: setPending,
      onError: (err) => toast.error('Error', errorMessage(err, 'Two-factor set-up could not start')),
    });

  const confirm = (e: FormEvent) => {
    e.preventDefault();
    enable.mutate(code.value, {
      onSuccess: (answer) => {
        setRecoveryCodes(answer.recoveryCodes);
        setPending(null);
        code.reset();
        toast.success('Two-factor sign-in is on');
      },
      onError: (err) => code.setError(errorMessage(err, 'The code is not valid')),
    });
  };

  const turnOff = (e: FormEvent) => {
    e.preventDefault();
    disable.mutate(
      { password, code: code.value },
      {
        onSuccess: () => {
          setPassword('');
          code.reset();
          toast.success('Two-factor sign-in is off');
        },
        onError: (err) => code.setError(errorMessage(err, 'Two-factor sign-in could not be turned off')),
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
          <Alert color="teal" title="Your recovery codes" role="status">
            <Text size="sm" mb="xs">
              Each code signs you in once if you lose your phone. They are shown only now: save or print them.
            </Text>
            <List spacing={2} aria-label="Recovery codes" data-testid="recovery-codes">
              {recoveryCodes.map((c) => (
                <List.Item key={c}>
                  <Code>{c}</Code>
                </List.Item>
              ))}
            </List>
            <Button mt="sm" variant="light" onClick={() => setRecoveryCodes(null)}>
              I have saved them
            </Button>
          </Alert>
        )}
        {!user.twoFactorEnabled && !pending && (
          <Group justify="space-between" gap="sm">
            <Text c="dark.3" maw={520}>
              Sign in with a code from an authenticator app as well as your password.
            </Text>
            <Button onClick={start} loading={setup.isPending}>
              Set up two-factor sign-in
            </Button>
          </Group>
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
                  <Button variant="subtle" onClick={() => setPending(null)}>
                    Cancel
                  </Button>
                </Group>
              </Stack>
            </SimpleGrid>
          </form>
        )}
        {user.twoFactorEnabled && (
          <form onSubmit={turnOff} noValidate aria-label="Turn off two-factor sign-in">
            <Stack gap="sm" maw={420}>
              <Text size="sm" c="dark.3">
                To turn it off, enter your password and a code from the app (or a recovery code).
              </Text>
              <PasswordInput
                label="Password"
                name="password"
                autoComplete="current-password"
                visibilityToggleButtonProps={{ 'aria-label': 'Show or hide password' }}
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
              />
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
