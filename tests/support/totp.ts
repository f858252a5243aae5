import { TOTP_STEP_SECONDS } from '../../server/modules/accounts/totp';

/**
 * Waits out the last seconds of the current authenticator step. Tests turn two-factor sign-in on with
 * the previous step's code (leaving this step's and the next for the sign-ins that follow); sent in
 * a step's last moments, that code could reach the server two steps old and be refused, which
 * failed a CI run once. `marginMs` is how long the request may take.
 */
export async function clearOfTotpStepEnd(marginMs = 5_000): Promise<void> {
  const stepMs = TOTP_STEP_SECONDS * 1000;
  const left = stepMs - (Date.now() % stepMs);
  if (left < marginMs) await new Promise((r) => setTimeout(r, left + 50));
}
