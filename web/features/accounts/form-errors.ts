import { errorMessage, serverFieldErrors } from '../../lib/api';
import { focusFirstError } from '../../lib/forms';
import { toast } from '../../lib/toast';

/** What /register hands to /login in the router state: the e-mail to fill in. */
export type LoginPrefill = { email?: string };

export { serverFieldErrors };

/**
 * A refused submit: the server's per-field messages on their fields (focus on the first), and a
 * toast with the server's message or the screen's fallback.
 */
export function showSubmitError(
  form: { setErrors(errors: Record<string, string>): void },
  err: unknown,
  failure: { title: string; fallback: string },
) {
  const fieldErrors = serverFieldErrors(err);
  form.setErrors(fieldErrors);
  focusFirstError(fieldErrors);
  toast.error(failure.title, errorMessage(err, failure.fallback));
}
