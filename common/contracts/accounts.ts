import { z } from 'zod';
import { LAB_CONTACT_EMAIL, LAB_FIXED_PHONE } from '../domain/reports';
import { ROLES } from '../domain/roles';

import {
  FORM_PASSWORD_MIN,
  MAX_PASSWORD_LENGTH,
  PROFILE_IMAGE_PART,
  PROFILE_PART,
  RESET_TOKEN_INVALID,
  SIGNATURE_PART,
  USER_PASSWORD_MIN,
  VERIFY_TOKEN_INVALID,
} from './accounts-constants';

export {
  FORM_PASSWORD_MIN,
  MAX_PASSWORD_LENGTH,
  PROFILE_IMAGE_PART,
  PROFILE_PART,
  RESET_TOKEN_INVALID,
  SIGNATURE_PART,
  USER_PASSWORD_MIN,
  VERIFY_TOKEN_INVALID,
};
/** A new password on the common-password list or built from the person's or the lab's name (server-side check). */
export const PASSWORD_TOO_GUESSABLE =
  'This password is too common or too easy to guess. Choose another, for example a few unrelated words.';

// HTML5's e-mail rule (what the browser's type=email accepts): 'admin@localhost', the generated
// first admin (README.md, Configuration), must be able to log in.
const email = z
  .email({ message: 'Invalid email address', pattern: z.regexes.html5Email })
  .max(255)
  .transform((v) => v.trim().toLowerCase());

export const loginRequest = z.object({
  email: z.string().trim().pipe(email),
  password: z
    .string()
    .min(FORM_PASSWORD_MIN, 'Password must be at least 6 characters')
    .max(MAX_PASSWORD_LENGTH),
});
export type LoginRequest = z.infer<typeof loginRequest>;

export const loginResponse = z.object({ token: z.string(), message: z.string() });
export type LoginResponse = z.infer<typeof loginResponse>;

/**
 * The register form (docs/product/limits.md): the form's 6-character message under 6, then the
 * server's 8-character rule and message, so the form accepts exactly what the server will.
 */
export const registerForm = z.object({
  email: z.string().trim().pipe(email),
  password: z
    .string()
    .min(FORM_PASSWORD_MIN, 'Password must be at least 6 characters')
    .min(USER_PASSWORD_MIN, 'Password must be at least 8 characters')
    .max(MAX_PASSWORD_LENGTH),
  firstName: z.string().trim().min(1, 'First name is required').max(255),
  lastName: z.string().trim().min(1, 'Last name is required').max(255),
});

/** What the server accepts: the 8-character minimum (docs/product/limits.md). */
export const registerRequest = registerForm.extend({
  password: z
    .string()
    .min(USER_PASSWORD_MIN, 'Password must be at least 8 characters')
    .max(MAX_PASSWORD_LENGTH),
});
export type RegisterRequest = z.infer<typeof registerRequest>;

export const registerResponse = z.object({
  id: z.number(),
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  role: z.string(),
});

/** GET /api/auth/user (docs/product/api.md). Image fields are /Uploads/… paths fetched with the token. */
export const authUserResponse = z.object({
  id: z.number(),
  email: z.string(),
  phone: z.string().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
  signature: z.string().nullable(),
  /** A staff member's qualifications (rich text), printed in the certification of the reports they sign. */
  qualifications: z.string().nullable(),
  role: z.string(),
  /** The address was confirmed through the link mailed to it. */
  emailVerified: z.boolean(),
  /** "E-mail me when my sample's status changes". */
  notifyStatusChanges: z.boolean(),
  /** Two-factor sign-in is on (docs/product/accounts-and-sessions.md). */
  twoFactorEnabled: z.boolean(),
  /** The lab requires two-factor sign-in of this staff member or admin, and it is not set up yet. */
  twoFactorSetupRequired: z.boolean(),
});
export type AuthUserResponse = z.infer<typeof authUserResponse>;

export const roleSchema = z.enum(ROLES);

export const adminUser = z.object({
  id: z.number(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  email: z.string(),
  role: z.string(),
  isActive: z.boolean(),
  /** Two-factor sign-in is on: an admin may reset it (POST /api/admin/users/{id}/2fa/reset). */
  twoFactorEnabled: z.boolean(),
});
export type AdminUser = z.infer<typeof adminUser>;
export const adminUsersResponse = z.array(adminUser);

export const changeRoleRequest = z.object({ role: roleSchema });
export type ChangeRoleRequest = z.infer<typeof changeRoleRequest>;

export const USERS_PAGE_SIZE = 20;
/** GET /api/admin/users without ?page= answers at most this many accounts (the first, by id). */
export const UNPAGED_USERS_LIMIT = 500;
export const MAX_USERS_PAGE_SIZE = 100;
export const MAX_USER_SEARCH = 100;

/**
 * GET /api/admin/users: ?role=staff lists one role only (the admin's staff selector); ?search=
 * matches name or e-mail (any part, ignoring case). With ?page= the answer is one page of
 * `pageSize` accounts and the total is in X-Total-Count; without it, every matching account.
 */
export const adminUsersQuery = z.object({
  role: roleSchema.optional(),
  search: z.string().trim().max(MAX_USER_SEARCH).optional(),
  page: z.coerce.number().int().min(1).max(1_000_000_000).optional(),
  pageSize: z.coerce.number().int().min(1).max(MAX_USERS_PAGE_SIZE).default(USERS_PAGE_SIZE),
});
export type AdminUsersQuery = z.input<typeof adminUsersQuery>;

export const LAST_ADMIN_MESSAGE = 'The last admin cannot be demoted';
export const EMAIL_TAKEN_MESSAGE = 'An account with this email already exists';
/**
 * The login answer (still 401) for a deactivated account whose password was right: the person learns
 * why and whom to ask, instead of resetting a password that is not the problem. A wrong password
 * never reaches it, so it tells nothing to someone who does not hold the password.
 */
export const ACCOUNT_DEACTIVATED_MESSAGE = `This account has been deactivated. To have it reactivated, contact the lab at ${LAB_CONTACT_EMAIL} or ${LAB_FIXED_PHONE}.`;

/** The server's answer when the 'profile' JSON is missing or invalid; the web app words it per docs/product/messages.md. */
export const INVALID_PROFILE_DATA = 'Invalid profile data';
export const SIGNATURE_RESTRICTED_MESSAGE = 'Signature uploads are restricted to admin or staff roles';
export const QUALIFICATIONS_RESTRICTED_MESSAGE = 'Qualifications are kept by staff and admins only';
export const QUALIFICATIONS_MAX = 10_000;
export const QUALIFICATIONS_TOO_LONG = `Qualifications can have at most ${QUALIFICATIONS_MAX} characters`;

/** The JSON inside the multipart 'profile' part of PUT /api/users/profile (docs/product/api.md, messages.md). */
const optionalTrimmed = z
  .string()
  .max(255)
  .nullish()
  .transform((v) => {
    const t = v?.trim();
    return t ? t : null;
  });
export const profileUpdate = z.object({
  // Length first, and a pattern without nested or adjacent overlapping repeats: the domain's labels
  // cannot contain dots, so each character has one way to match (linear time, docs/product/security.md).
  email: z
    .string()
    .trim()
    .min(1, { message: 'Email is required', abort: true })
    .max(255, { abort: true })
    .regex(/^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/, 'Invalid email format')
    .transform((v) => v.toLowerCase()),
  phone: optionalTrimmed,
  firstName: optionalTrimmed,
  lastName: optionalTrimmed,
  /** Required when the e-mail changes (docs/product/accounts-and-sessions.md). */
  currentPassword: z.string().max(MAX_PASSWORD_LENGTH).optional(),
  /**
   * Staff and admins: credentials, memberships, years, fields of expertise (rich text, cleaned on the
   * server; docs/product/appraisal-report.md). Left out, unchanged; blank, removed.
   */
  qualifications: z.string().max(QUALIFICATIONS_MAX, QUALIFICATIONS_TOO_LONG).nullish(),
});
export type ProfileUpdate = z.infer<typeof profileUpdate>;

// Password reset, e-mail confirmation, sessions (docs/product/accounts-and-sessions.md).

export const PASSWORDS_DIFFER = 'The passwords do not match';

const newPassword = z
  .string()
  .min(USER_PASSWORD_MIN, 'Password must be at least 8 characters')
  .max(MAX_PASSWORD_LENGTH);

export const forgotPasswordRequest = z.object({ email: z.string().trim().pipe(email) });
export type ForgotPasswordRequest = z.infer<typeof forgotPasswordRequest>;
export const messageResponse = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponse>;
export const FORGOT_PASSWORD_ANSWER =
  'If an account exists for this address, we have sent it a link to choose a new password. The link is valid for 60 minutes.';

export const resetPasswordRequest = z.object({ token: z.string().min(1).max(200), password: newPassword });
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequest>;
/** The reset page's form: the new password typed twice (the token comes from the link). */
export const resetPasswordForm = z
  .object({ password: newPassword, confirmPassword: z.string().max(MAX_PASSWORD_LENGTH) })
  .refine((v) => v.password === v.confirmPassword, {
    message: PASSWORDS_DIFFER,
    path: ['confirmPassword'],
  });
export type ResetPasswordForm = z.infer<typeof resetPasswordForm>;
export const PASSWORD_RESET_DONE = 'Your password has been changed. You can now log in.';

export const verifyEmailRequest = z.object({ token: z.string().min(1).max(200) });
export const EMAIL_VERIFIED = 'Your e-mail address is confirmed.';
export const VERIFY_EMAIL_SENT = 'We have sent a new confirmation link to your e-mail address.';

export const changePasswordRequest = z.object({
  currentPassword: z.string().min(1, 'Current password is required').max(MAX_PASSWORD_LENGTH),
  newPassword,
});
export type ChangePasswordRequest = z.infer<typeof changePasswordRequest>;
/** The profile's form: the new password typed twice. */
export const changePasswordForm = changePasswordRequest
  .extend({ confirmPassword: z.string().max(MAX_PASSWORD_LENGTH) })
  .refine((v) => v.newPassword === v.confirmPassword, {
    message: PASSWORDS_DIFFER,
    path: ['confirmPassword'],
  });
export type ChangePasswordForm = z.infer<typeof changePasswordForm>;
export const changePasswordResponse = z.object({ token: z.string(), message: z.string() });
export const WRONG_CURRENT_PASSWORD = 'Current password is incorrect';
export const CURRENT_PASSWORD_REQUIRED = 'Enter your current password to change your e-mail address';

export const preferencesRequest = z.object({ notifyStatusChanges: z.boolean() });

export const setActiveRequest = z.object({ isActive: z.boolean() });
export const LAST_ACTIVE_ADMIN_MESSAGE = 'The last active admin cannot be deactivated';
