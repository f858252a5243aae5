import { Alert, Anchor, Group, PasswordInput } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import type { LoginRequest } from '../../../../common/contracts/accounts';
import { homePathForRole } from '../../../../common/domain/roles';
import { EmailField } from '../../../components/EmailField';
import { errorMessage } from '../../../lib/api';
import { focusFirstError, lazyContract } from '../../../lib/forms';
import { usePublicForm } from '../../../lib/public-form';
import { type LoginNotice, returnPathFrom } from '../../../lib/return-to';
import { useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { useLogIn } from '../api';
import { type LoginPrefill, showSubmitError } from '../form-errors';
import { AuthCard, AuthForm } from './AuthCard';
import { SecondFactorStep } from './SecondFactorStep';

export const LOGIN_SUCCESS = 'Logged in successfully';
export const LOGIN_FAILURE = { title: 'Login failed', fallback: 'Failed to login' };

const contract = lazyContract(
  async () => (await import('../../../../common/contracts/accounts')).loginRequest,
);

export function LoginPage() {
  usePageTitle('Login', 'Log in to follow your submissions and download your valuation reports.');
  const session = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const logIn = useLogIn();
  const state = location.state as (LoginPrefill & LoginNotice) | null;
  const prefill = state?.email;
  const notice = typeof state?.notice === 'string' ? state.notice : null;
  // A refused sign-in is also written above the button (the toast goes after a few seconds); it
  // goes as soon as either field is edited.
  const [failure, setFailure] = useState<string | null>(null);
  const form = usePublicForm<LoginRequest>({
    initialValues: { email: typeof prefill === 'string' ? prefill : '', password: '' },
    contract,
    onValuesChange: () => setFailure(null),
  });

  // Coming from /register: the e-mail is filled in, the password is what is left to type.
  const passwordRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (prefill) passwordRef.current?.focus();
  }, [prefill]);
  const [mfaToken, setMfaToken] = useState<string | null>(null);
  const finish = async (token: string) => {
    const user = await session.login(token);
    toast.success(LOGIN_SUCCESS);
    navigate(returnPathFrom(location) ?? homePathForRole(user.role), { replace: true });
  };

  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      const answer = await logIn.mutateAsync(values);
      // With two-factor sign-in on, the password opens the second step (docs/product/accounts-and-sessions.md).
      if ('mfaRequired' in answer) setMfaToken(answer.mfaToken);
      else await finish(answer.token);
    } catch (err) {
      setFailure(errorMessage(err, LOGIN_FAILURE.fallback));
      showSubmitError(form, err, LOGIN_FAILURE);
    }
  }, focusFirstError);

  const pending = logIn.isPending || form.submitting;
  if (mfaToken)
    return <SecondFactorStep mfaToken={mfaToken} onDone={finish} onRestart={() => setMfaToken(null)} />;
  return (
    <AuthCard
      title="Login"
      lead="Welcome back. Log in to your account."
      footer={{ text: "Don't have an account?", link: 'Sign up', to: '/register' }}
    >
      <AuthForm onSubmit={submit} submitLabel="Login" pending={pending} spaced>
        {notice ? (
          <Alert color="blue" variant="light" role="status">
            {notice}
          </Alert>
        ) : null}
        <EmailField {...form.getInputProps('email')} />
        <PasswordInput
          label="Password"
          name="password"
          autoComplete="current-password"
          withAsterisk
          ref={passwordRef}
          visibilityToggleButtonProps={{ 'aria-label': 'Show or hide password' }}
          {...form.getInputProps('password')}
        />
        <Group justify="flex-end" mt={-8}>
          <Anchor component={Link} to="/forgot-password" size="sm">
            Forgot password?
          </Anchor>
        </Group>
        {failure ? (
          <Alert color="red" variant="light" role="alert" icon={<IconAlertCircle aria-hidden="true" />}>
            {failure}
          </Alert>
        ) : null}
      </AuthForm>
    </AuthCard>
  );
}
