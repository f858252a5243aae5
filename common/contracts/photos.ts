import { z } from 'zod';

// What the API says about a sample photo's display copies (docs/product/photos.md). The URLs need the
// bearer token like every /Uploads path; they are null while the copies are being made
// (`processing: true`), for a photo whose file could not be read, and for documents.

export const photoCopyFields = z.object({
  thumbnailUrl: z.string().nullable(),
  displayUrl: z.string().nullable(),
  processing: z.boolean(),
});
export type PhotoCopyFields = z.infer<typeof photoCopyFields>;

/** GET /Uploads/photos/{id}/{variant} */
export const photoCopyParams = z.object({
  id: z.coerce.number().int().positive().max(2_147_483_647),
  variant: z.enum(['thumbnail', 'display']),
});

/** GET /api/public/photos/{id}/display: a link the server signed, valid until `expires` (Unix seconds). */
export const publicPhotoQuery = z.object({
  expires: z.coerce.number().int().positive(),
  signature: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'Invalid signature'),
});
