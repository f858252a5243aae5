import { z } from 'zod';

/** Every error answer (docs/product/api.md). */
export const errorResponse = z.object({
  message: z.string(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ErrorResponse = z.infer<typeof errorResponse>;

export const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/** The error answers a route may give, one `errorResponse` per status: `errorResponses(400, 404)`. */
export function errorResponses<const C extends number>(...codes: C[]): Record<C, typeof errorResponse> {
  return Object.fromEntries(codes.map((code) => [code, errorResponse])) as Record<C, typeof errorResponse>;
}

/** What a signed-in call that reads or changes one record may answer besides success. */
export const RECORD_CALL_ERRORS = errorResponses(400, 401, 403, 404, 409);
