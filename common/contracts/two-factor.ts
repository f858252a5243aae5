import { z } from 'zod';
import { loginResponse, MAX_PASSWORD_LENGTH } from './accounts';
import {
  MFA_TOKEN_INVALID,
  RECOVERY_CODE_COUNT,
  TWO_FACTOR_CODE_INVALID,
  TWO_FACTOR_REQUIRED_MESSAGE,
  TWO_FACTOR_SETUP_REQUIRED,
} from './two-factor-messages';

// Two-factor sign-in (docs/product/accounts-and-sessions.md): TOTP set-up, the second step of a
// login, recovery codes, turning it off.

export {
  MFA_TOKEN_INVALID,
  RECOVERY_CODE_COUNT,
  TWO_FACTOR_CODE_INVALID,
  TWO_FACTOR_REQUIRED_MESSAGE,
  TWO_FACTOR_SETUP_REQUIRED,
};

/** A 6-digit app code or a recovery code (xxxxx-xxxxx); spaces are ignored. */
export const twoFactorCode = z
  .string({ message: 'Enter a code' })
  .max(32, TWO_FACTOR_CODE_INVALID)
  .transform((v) => v.replace(/\s+/g, '').toLowerCase())
  .pipe(z.string().min(6, 'Enter a code'));

/** POST /login: a token, or — with two-factor sign-in on — the pending second step. */
export const mfaChallengeResponse = z.object({
  mfaRequired: z.literal(true),
  mfaToken: z.string(),
  message: z.string(),
});
export const loginAnswer = z.union([loginResponse, mfaChallengeResponse]);
export type LoginAnswer = z.infer<typeof loginAnswer>;

export const totpSetupResponse = z.object({
  secret: z.string(),
  otpauthUrl: z.string(),
  /** The otpauth URL as a QR code (a data: URL of an SVG image). */
  qrCode: z.string(),
});
export type TotpSetupResponse = z.infer<typeof totpSetupResponse>;

/**
 * The account's current password: turning two-factor sign-in on or off and making new recovery codes
 * ask for it, so a stolen session alone cannot plant or remove a second factor.
 */
export const currentPasswordField = z
  .string({ message: 'Password is required' })
  .min(1, 'Password is required')
  .max(MAX_PASSWORD_LENGTH);
export const PASSWORD_INCORRECT = 'Password is incorrect';

export const totpSetupRequest = z.object({ password: currentPasswordField });
export type TotpSetupRequest = z.input<typeof totpSetupRequest>;

export const totpEnableRequest = z.object({ code: twoFactorCode, password: currentPasswordField });
export type TotpEnableRequest = z.input<typeof totpEnableRequest>;
export const totpEnableResponse = z.object({
  recoveryCodes: z.array(z.string()).length(RECOVERY_CODE_COUNT),
  message: z.string(),
});
export type TotpEnableResponse = z.infer<typeof totpEnableResponse>;

/** POST /api/auth/2fa/recovery-codes: ten new codes replace the old ones (shown once). */
export const recoveryCodesRequest = z.object({ password: currentPasswordField });
export type RecoveryCodesRequest = z.input<typeof recoveryCodesRequest>;

/**
 * Wrong second-step codes one account may take in TWO_FACTOR_GUESS_WINDOW_MS, from all addresses
 * together; beyond it the second step answers 429 (even for a right code) until the window passes.
 */
export const MAX_TWO_FACTOR_GUESSES = 10;
export const TWO_FACTOR_GUESS_WINDOW_MS = 15 * 60 * 1000;
export const TWO_FACTOR_GUESSES_EXCEEDED =
  'Too many wrong codes for this account. Please try again in 15 minutes.';
export const TWO_FACTOR_NOT_ON = 'Two-factor sign-in is not on for this account';

export const mfaVerifyRequest = z.object({ mfaToken: z.string().min(1).max(128), code: twoFactorCode });
export type MfaVerifyRequest = z.input<typeof mfaVerifyRequest>;

export const twoFactorDisableRequest = z.object({
  password: currentPasswordField,
  code: twoFactorCode,
});
export type TwoFactorDisableRequest = z.input<typeof twoFactorDisableRequest>;
