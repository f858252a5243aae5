import { TextInput, type TextInputProps } from '@mantine/core';

/** The required e-mail address field of the sign-in, sign-up, password, profile and contact forms. */
export function EmailField(props: TextInputProps) {
  return <TextInput label="Email" name="email" type="email" autoComplete="email" withAsterisk {...props} />;
}
