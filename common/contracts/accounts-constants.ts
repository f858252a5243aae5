// Account texts and bounds without zod (docs/product/accounts-and-sessions.md): the public sign-in
// and mail-link pages import them at once and load the forms' schemas (./accounts) only when a form
// checks a field (scripts/check-web-size.mjs). ./accounts re-exports them.

// The forms check 6 characters (a documented rule); the server's user schema requires 8.
export const FORM_PASSWORD_MIN = 6;
export const USER_PASSWORD_MIN = 8;
export const MAX_PASSWORD_LENGTH = 200;

// PUT /api/users/profile (docs/product/api.md): multipart parts 'profile' (JSON), 'profileImage', 'signature'.
export const PROFILE_PART = 'profile';
export const PROFILE_IMAGE_PART = 'profileImage';
export const SIGNATURE_PART = 'signature';

export const RESET_TOKEN_INVALID = 'This reset link is invalid or has expired. Please ask for a new one.';
export const VERIFY_TOKEN_INVALID = 'This confirmation link is invalid or has expired.';
