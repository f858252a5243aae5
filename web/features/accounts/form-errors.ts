import { errorMessage, HttpError } from '../../lib/api';
import { focusFirstError } from '../../lib/forms';
import { toast } from '../../lib/toast';

/** What /register hands to /login in the router state: the e-mail to fill in. */
export type LoginPrefill = { email?: string };

/** The per-field messages of a 400 answer ({errors: [{path, message}]}), keyed by field name. */
export function serverFieldErrors(err: unknown): Record<string, string> {
  if (!(err instanceof HttpError) || err.status !== 400) return {};
  try {
    const body = JSON.parse(err.bodyText) as { errors?: { path?: unknown; message?: unknown }[] };
    const out: Record<string, string> = {};
    for (const e of body.errors ?? []) {
      if (typeof e.path === 'string' && typeof e.message === 'string' && !(e.path in out))
        out[e.path] = e.message;
    }
    return out;
  } catch {
    return {};
  }
}

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
