import type { FormErrors } from '@mantine/form';
import { focusInView } from '../../lib/forms';

// Where a refused submission sends the eye: the toast names the most important problem and the
// focus goes to the first field with an error.

/** A missing photo first, then the missing service, then the first field's message. */
export function leadingError(errors: FormErrors): string | undefined {
  const first = errors.photos ?? errors.services ?? Object.values(errors)[0];
  return first === undefined || first === null ? undefined : String(first);
}

/** Focuses the first field with an error; 'services' has no input of its own, so its first checkbox. */
export function focusFirstInvalid(form: HTMLFormElement, errors: FormErrors) {
  const field = Object.keys(errors)[0];
  if (!field) return;
  const name = field === 'services' ? 'expertValuation' : field;
  focusInView(form.querySelector<HTMLElement>(`[name="${name}"]`));
}
