import type { LoginThrottle } from './login-throttle';
import { badRequest } from '../../plugins/errors';
import { verifyPassword } from './passwords';

/**
 * Checks the current password a signed-in person typed to confirm a sensitive change (password,
 * e-mail address, two-factor sign-in). It is throttled exactly like a login (login-throttle.ts):
 * counted before the hash is checked, so a stolen session cannot be used to guess the password.
 * A wrong password is 400 with `message` beside `field`; a right one does not make the address
 * "known" (only a complete sign-in does).
 */
export async function checkCurrentPassword(
  throttle: LoginThrottle,
  user: { email: string; passwordHash: string },
  password: string,
  ip: string,
  field: string,
  message: string,
): Promise<void> {
  const attempt = await throttle.reserve(user.email, ip);
  if (!(await verifyPassword(user.passwordHash, password)))
    throw badRequest(message, [{ path: field, message }]);
  await attempt.succeeded({ knownAddress: false });
}
