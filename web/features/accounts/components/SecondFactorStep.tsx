import { Anchor, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { MFA_TOKEN_INVALID } from '../../../../common/contracts/two-factor-messages';
import { errorMessage } from '../../../lib/api';
import { toast } from '../../../lib/toast';
import { useVerifySecondFactor } from '../api';
import { AuthCard, AuthForm } from './AuthCard';

/** The second step of a sign-in with two factors: an app code or a recovery code. */
export function SecondFactorStep({
  mfaToken,
  onDone,
  onRestart,
}: {
  mfaToken: string;
  onDone: (token: string) => Promise<void>;
  onRestart: () => void;
}) {
  const verify = useVerifySecondFactor();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!code.trim()) {
      setError('Enter a code');
      return;
    }
    try {
      const { token } = await verify.mutateAsync({ mfaToken, code });
      await onDone(token);
    } catch (err) {
      const message = errorMessage(err, 'The code could not be checked');
      setError(message);
      toast.error('Login failed', message);
      if (message === MFA_TOKEN_INVALID) onRestart();
    }
  };

  return (
    <AuthCard title="Two-factor sign-in" lead="Enter the 6-digit code from your authenticator app.">
      <AuthForm
        onSubmit={submit}
        submitLabel="Verify"
        pending={verify.isPending}
        below={
          <Text size="sm" ta="center">
            <Anchor component="button" type="button" onClick={onRestart}>
              Start again with your password
            </Anchor>
          </Text>
        }
      >
        <TextInput
          label="Authentication code"
          name="code"
          description="Or one of your recovery codes, if you no longer have the app."
          autoComplete="one-time-code"
          inputMode="text"
          withAsterisk
          value={code}
          error={error}
          onChange={(e) => {
            setCode(e.currentTarget.value);
            setError(null);
          }}
        />
      </AuthForm>
    </AuthCard>
  );
}
