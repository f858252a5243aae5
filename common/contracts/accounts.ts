import { z } from 'zod';
import { ROLES } from '../domain/roles';

// Spec §5: the forms check 6 characters; the server's user schema requires 8.
export const FORM_PASSWORD_MIN = 6;
export const USER_PASSWORD_MIN = 8;
export const MAX_PASSWORD_LENGTH = 200;

const email = z
  .email('Invalid email address')
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

/** The register form (spec §5): 6-character minimum, names required. */
export const registerForm = z.object({
  email: z.string().trim().pipe(email),
  password: z
    .string()
    .min(FORM_PASSWORD_MIN, 'Password must be at least 6 characters')
    .max(MAX_PASSWORD_LENGTH),
  firstName: z.string().trim().min(1, 'First name is required').max(255),
  lastName: z.string().trim().min(1, 'Last name is required').max(255),
});

/** What the server accepts: the user schema's 8-character minimum (spec §5). */
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

/** GET /api/auth/user (spec §7). Image fields are /Uploads/… paths fetched with the token. */
export const authUserResponse = z.object({
  id: z.number(),
  email: z.string(),
  phone: z.string().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
  signature: z.string().nullable(),
  role: z.string(),
});
export type AuthUserResponse = z.infer<typeof authUserResponse>;

export const roleSchema = z.enum(ROLES);

export const adminUser = z.object({
  id: z.number(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  email: z.string(),
  role: z.string(),
});
export type AdminUser = z.infer<typeof adminUser>;
export const adminUsersResponse = z.array(adminUser);

export const changeRoleRequest = z.object({ role: roleSchema });

/** The JSON inside the multipart 'profile' part of PUT /api/users/profile (spec §5 Profile). */
const optionalTrimmed = z
  .string()
  .max(255)
  .nullish()
  .transform((v) => {
    const t = v?.trim();
    return t ? t : null;
  });
export const profileUpdate = z.object({
  email: z
    .string()
    .trim()
    .min(1, 'Email is required')
    .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'Invalid email format')
    .max(255)
    .transform((v) => v.toLowerCase()),
  phone: optionalTrimmed,
  firstName: optionalTrimmed,
  lastName: optionalTrimmed,
});
export type ProfileUpdate = z.infer<typeof profileUpdate>;
