import { errorMessage, serverFieldErrors } from '../../lib/api';
import { focusFirstError } from '../../lib/forms';
import { toast } from '../../lib/toast';

/** What /register hands to /login in the router state: the e-mail to fill in. */
export type LoginPrefill = { email?: string };

/** What the register page says on /login about the confirmation mail it caused. */
export const confirmationMailNotice = (email: string) =>
  `We sent a confirmation link to ${email}. You can log in now and confirm your address from that mail.`;

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
