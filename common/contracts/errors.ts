import { z } from 'zod';

/** Every error answer (docs/product/api.md). */
export const errorResponse = z.object({
  message: z.string(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ErrorResponse = z.infer<typeof errorResponse>;

export const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
