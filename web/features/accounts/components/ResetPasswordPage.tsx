import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { ResetPasswordForm } from '../../../../common/contracts/accounts';
import { RESET_TOKEN_INVALID } from '../../../../common/contracts/accounts-constants';
import { focusFirstError, lazyContract } from '../../../lib/forms';
import { usePublicForm } from '../../../lib/public-form';
import { toast } from '../../../lib/toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { useResetPassword } from '../api';
import { serverFieldErrors, showSubmitError } from '../form-errors';
import { AuthCard, AuthForm } from './AuthCard';
import { NewPasswordFields } from './PasswordField';

export const RESET_FAILURE = { title: 'Reset failed', fallback: 'Failed to change the password' };

const contract = lazyContract(
  async () => (await import('../../../../common/contracts/accounts')).resetPasswordForm,
);

/** /reset-password?token=… from the reset mail: a new password, then /login. */
export function ResetPasswordPage() {
  usePageTitle('Choose a new password');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const reset = useResetPassword();
  // The link itself is refused (wrong, used or expired): the form is of no use any more.
  const [linkProblem, setLinkProblem] = useState<string | null>(token ? null : RESET_TOKEN_INVALID);
  const form = usePublicForm<ResetPasswordForm>({
    initialValues: { password: '', confirmPassword: '' },
    contract,
  });

  const submit = form.onSubmit(async (values) => {
    try {
      const { message } = await reset.mutateAsync({ token, password: values.password });
      toast.success('Password changed', message);
      navigate('/login', { replace: true });
    } catch (err) {
      const fieldErrors = serverFieldErrors(err);
      if (fieldErrors.token) {
        setLinkProblem(fieldErrors.token);
        return;
      }
      showSubmitError(form, err, RESET_FAILURE);
    }
  }, focusFirstError);

  return (
    <AuthCard
      title="Choose a new password"
      lead="Every device signed in to your account will be signed out."
      footer={{ text: 'Remembered it?', link: 'Log in', to: '/login' }}
    >
      {linkProblem ? (
        <Alert color="red" title="This link cannot be used" role="alert">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{linkProblem}</Text>
            <Anchor component={Link} to="/forgot-password" fw={600} size="sm">
              Ask for a new link
            </Anchor>
          </Stack>
        </Alert>
      ) : (
        <AuthForm onSubmit={submit} submitLabel="Set new password" pending={reset.isPending}>
          <NewPasswordFields
            name="password"
            description="At least 8 characters"
            password={form.getInputProps('password')}
            confirmation={form.getInputProps('confirmPassword')}
          />
        </AuthForm>
      )}
    </AuthCard>
  );
}
