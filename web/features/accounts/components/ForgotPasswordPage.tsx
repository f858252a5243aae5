import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import type { ForgotPasswordRequest } from '../../../../common/contracts/accounts';
import { EmailField } from '../../../components/EmailField';
import { focusFirstError, lazyContract } from '../../../lib/forms';
import { usePublicForm } from '../../../lib/public-form';
import { usePageTitle } from '../../../lib/use-page-title';
import { useForgotPassword } from '../api';
import { showSubmitError } from '../form-errors';
import { AuthCard, AuthForm } from './AuthCard';

export const FORGOT_FAILURE = { title: 'Request failed', fallback: 'Failed to send the reset link' };

const contract = lazyContract(
  async () => (await import('../../../../common/contracts/accounts')).forgotPasswordRequest,
);

/**
 * /forgot-password: the address gets a reset link if it has an account. The answer is the same
 * either way (docs/product/accounts-and-sessions.md), so the page only repeats it.
 */
export function ForgotPasswordPage() {
  usePageTitle('Forgot password', 'Ask for a link to choose a new password.');
  const forgot = useForgotPassword();
  const [answer, setAnswer] = useState<string | null>(null);
  const form = usePublicForm<ForgotPasswordRequest>({
    initialValues: { email: '' },
    contract,
  });

  const submit = form.onSubmit(async (values) => {
    try {
      const { message } = await forgot.mutateAsync(await contract.parse(values));
      setAnswer(message);
    } catch (err) {
      showSubmitError(form, err, FORGOT_FAILURE);
    }
  }, focusFirstError);

  return (
    <AuthCard
      title="Forgot password?"
      lead="Enter the e-mail address of your account and we will send you a link to choose a new password."
      footer={{ text: 'Remembered it?', link: 'Log in', to: '/login' }}
    >
      {answer ? (
        <Stack gap="md">
          <Alert color="teal" title="Check your e-mail" role="status">
            {answer}
          </Alert>
          <Text size="sm">
            Nothing arrived? Check your spam folder, or{' '}
            <Anchor component="button" type="button" onClick={() => setAnswer(null)}>
              try another address
            </Anchor>
            .
          </Text>
        </Stack>
      ) : (
        <AuthForm
          onSubmit={submit}
          submitLabel="Send reset link"
          pending={forgot.isPending}
          below={
            <Text size="sm" ta="center">
              <Anchor component={Link} to="/login">
                Back to login
              </Anchor>
            </Text>
          }
        >
          <EmailField {...form.getInputProps('email')} />
        </AuthForm>
      )}
    </AuthCard>
  );
}
