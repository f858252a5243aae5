import { z } from 'zod';

// Lab settings (docs/product/screens.md, api.md, messages.md).

export const LAB_NAME_REQUIRED = 'Lab name is required';
export const INVALID_URL = 'Invalid URL';
export const INVALID_EMAIL = 'Invalid email address';

/** Empty or blank becomes null (docs/product/api.md: empty fields are sent as null). */
const optional = z
  .string()
  .max(255)
  .nullish()
  .transform((v) => (v?.trim() ? v.trim() : null));

const isUrl = (v: string) => {
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
};

/** The JSON of the multipart 'settings' part; the web form validates with the same schema. */
export const labSettingsRequest = z.object({
  labName: z.string({ message: LAB_NAME_REQUIRED }).trim().min(1, LAB_NAME_REQUIRED).max(255),
  address: optional,
  phone: optional,
  email: optional.refine((v) => v === null || z.email().safeParse(v).success, INVALID_EMAIL),
  website: optional.refine((v) => v === null || isUrl(v), INVALID_URL),
  certificationNumber: optional,
});
export type LabSettingsRequest = z.input<typeof labSettingsRequest>;

/** GET/POST answer. `logo` is an /Uploads/logo/… path, fetched with the token. */
export const labSettingsResponse = z.object({
  labName: z.string().nullable(),
  address: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  website: z.string().nullable(),
  certificationNumber: z.string().nullable(),
  logo: z.string().nullable(),
});
export type LabSettings = z.infer<typeof labSettingsResponse>;
