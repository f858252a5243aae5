import { HttpError } from '../../lib/api';

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
