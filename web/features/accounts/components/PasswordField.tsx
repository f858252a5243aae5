import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';

/**
 * A required password input whose show/hide button names the field it belongs to (several sit side
 * by side on the profile and the reset page). `what` finishes 'Show or hide the …'.
 */
export function PasswordField({
  what,
  ...props
}: PasswordInputProps & { label: string; name: string; what: string }) {
  return (
    <PasswordInput
      withAsterisk
      visibilityToggleButtonProps={{ 'aria-label': `Show or hide the ${what}` }}
      {...props}
    />
  );
}

/**
 * A new password typed twice, when changing it on the profile or resetting it from the mail. The
 * form's contract holds the rules (the length, and that the repetition matches: its error shows on
 * the second field); the repetition is always the form's `confirmPassword`.
 */
export function NewPasswordFields({
  name,
  description,
  password,
  confirmation,
}: {
  /** The new password's field in the form. */
  name: string;
  description?: string;
  password: GetInputPropsReturnType;
  confirmation: GetInputPropsReturnType;
}) {
  return (
    <>
      <PasswordField
        label="New password"
        name={name}
        what="new password"
        autoComplete="new-password"
        description={description}
        {...password}
      />
      <PasswordField
        label="Repeat the new password"
        name="confirmPassword"
        what="repeated password"
        autoComplete="new-password"
        {...confirmation}
      />
    </>
  );
}
