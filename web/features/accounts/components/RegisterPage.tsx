import { PasswordInput, SimpleGrid, TextInput } from '@mantine/core';
import { useNavigate } from 'react-router';
import type { RegisterRequest } from '../../../../common/contracts/accounts';
import { USER_PASSWORD_MIN } from '../../../../common/contracts/accounts-constants';
import { EmailField } from '../../../components/EmailField';
import { errorMessage, HttpError } from '../../../lib/api';
import { focusFirstError, lazyContract } from '../../../lib/forms';
import { usePublicForm } from '../../../lib/public-form';
import { toast } from '../../../lib/toast';
import { usePageTitle } from '../../../lib/use-page-title';
import { useRegister } from '../api';
import { confirmationMailNotice, type LoginPrefill, serverFieldErrors } from '../form-errors';
import type { LoginNotice } from '../../../lib/return-to';
import { AuthCard, AuthForm } from './AuthCard';

export const REGISTER_SUCCESS = 'Registered successfully. Please log in.';
export const REGISTER_FAILURE = { title: 'Registration failed', fallback: 'Failed to register' };

const contract = lazyContract(
  async () => (await import('../../../../common/contracts/accounts')).registerForm,
);

/**
 * The form checks the 6-character minimum and then the server's 8, with their own messages, so what
 * the form accepts the server accepts; the hint names the 8 (docs/product/limits.md). After success
 * /login opens with the e-mail filled in (router state, not the address).
 */
export function RegisterPage() {
  usePageTitle('Sign Up', 'Create an account to submit items for valuation and follow their progress.');
  const navigate = useNavigate();
  const registerAccount = useRegister();
  const form = usePublicForm<RegisterRequest>({
    initialValues: { email: '', password: '', firstName: '', lastName: '' },
    contract,
  });

  const submit = form.onSubmit(async (values) => {
    try {
      await registerAccount.mutateAsync(await contract.parse(values));
      toast.success(REGISTER_SUCCESS);
      const email = values.email.trim();
      navigate('/login', {
        state: { email, notice: confirmationMailNotice(email) } satisfies LoginPrefill & LoginNotice,
      });
    } catch (err) {
      const fieldErrors = serverFieldErrors(err);
      // A taken e-mail (409) is about the Email field: shown there as well as in the toast.
      if (err instanceof HttpError && err.status === 409 && err.serverMessage)
        fieldErrors.email = err.serverMessage;
      form.setErrors(fieldErrors);
      focusFirstError(fieldErrors);
      toast.error(REGISTER_FAILURE.title, errorMessage(err, REGISTER_FAILURE.fallback));
    }
  }, focusFirstError);

  return (
    <AuthCard
      title="Create an Account"
      lead="Sign up to submit items for valuation and follow their progress."
      footer={{ text: 'Already have an account?', link: 'Log in', to: '/login' }}
    >
      <AuthForm onSubmit={submit} submitLabel="Sign Up" pending={registerAccount.isPending} spaced>
        <EmailField {...form.getInputProps('email')} />
        <PasswordInput
          label="Password"
          name="password"
          autoComplete="new-password"
          description={`Use at least ${USER_PASSWORD_MIN} characters.`}
          withAsterisk
          visibilityToggleButtonProps={{ 'aria-label': 'Show or hide password' }}
          {...form.getInputProps('password')}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          <TextInput
            label="First Name"
            name="firstName"
            autoComplete="given-name"
            withAsterisk
            {...form.getInputProps('firstName')}
          />
          <TextInput
            label="Last Name"
            name="lastName"
            autoComplete="family-name"
            withAsterisk
            {...form.getInputProps('lastName')}
          />
        </SimpleGrid>
      </AuthForm>
    </AuthCard>
  );
}
