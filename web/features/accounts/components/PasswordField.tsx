import { PasswordInput, type PasswordInputProps } from '@mantine/core';

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
