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

export const totpEnableRequest = z.object({ code: twoFactorCode });
export const totpEnableResponse = z.object({
  recoveryCodes: z.array(z.string()).length(RECOVERY_CODE_COUNT),
  message: z.string(),
});
export type TotpEnableResponse = z.infer<typeof totpEnableResponse>;

export const mfaVerifyRequest = z.object({ mfaToken: z.string().min(1).max(128), code: twoFactorCode });
export type MfaVerifyRequest = z.input<typeof mfaVerifyRequest>;

export const twoFactorDisableRequest = z.object({
  password: z.string().min(1, 'Password is required').max(MAX_PASSWORD_LENGTH),
  code: twoFactorCode,
});
export type TwoFactorDisableRequest = z.input<typeof twoFactorDisableRequest>;
