import type { Location } from 'react-router';

// Where to go after signing in: the page that sent the visitor to /login, when it is a path of this
// site. Anything else (another origin, a protocol-relative '//host', a backslash trick) is ignored.

export type ReturnState = { from?: string };
/** A neutral line the login form shows above its fields (why the visitor is asked to log in). */
export type LoginNotice = { notice?: string };

export function safeReturnPath(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return null;
  if ([...value].some((c) => c.charCodeAt(0) < 32)) return null;
  if (value === '/login' || value.startsWith('/login?') || value === '/register') return null;
  return value;
}

/** The path to return to, read from the router state /login was opened with. */
export function returnPathFrom(location: Pick<Location, 'state'>): string | null {
  const state = location.state as ReturnState | null | undefined;
  return safeReturnPath(state?.from);
}
