// Two-factor sign-in's fixed texts (docs/product/accounts-and-sessions.md), without zod: the web app's
// shell (RequireSession) shows one of them on every page, and importing ./two-factor there would put
// zod and the account schemas into every public page's JavaScript (scripts/check-web-size.mjs).

export const RECOVERY_CODE_COUNT = 10;
export const TWO_FACTOR_CODE_INVALID = 'The code is not valid. Please try again.';
export const TWO_FACTOR_REQUIRED_MESSAGE = 'Enter the code from your authenticator app to finish signing in.';
export const TWO_FACTOR_SETUP_REQUIRED =
  'The lab requires two-factor sign-in for staff and admins. Set it up in your profile to continue.';
export const MFA_TOKEN_INVALID = 'This sign-in has expired. Please sign in again with your password.';
