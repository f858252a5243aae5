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

/**
 * GET /api/public/reports/{code}/photos/{id}: the display copy of one of the photos an issued report
 * shows, without a token (the report's code is what opens it, as for its verification).
 */
export const reportPhotoParams = z.object({
  code: z.string().max(64),
  id: photoCopyParams.shape.id,
});
