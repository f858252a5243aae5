import { z } from 'zod';
import { API_KEY_SCOPES } from '../domain/api-keys';

export const apiKeyScope = z.enum(API_KEY_SCOPES);

/** POST /api/api-keys */
export const createApiKeyBody = z.object({
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(100, 'Name must be at most 100 characters'),
  scopes: z
    .array(apiKeyScope, { error: 'Choose at least one scope' })
    .min(1, 'Choose at least one scope')
    .transform((scopes) => [...new Set(scopes)]),
});
export type CreateApiKeyBody = z.input<typeof createApiKeyBody>;

/** One key as its owner sees it in the list: never the key itself, only its first characters. */
export const apiKeyListItem = z.object({
  id: z.number().int(),
  name: z.string(),
  scopes: z.array(apiKeyScope),
  /** The key's first characters (`vlk_Ab3dE6gH`), to tell keys apart. */
  prefix: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type ApiKeyListItem = z.infer<typeof apiKeyListItem>;

/** The answer to creating a key: the only time the key is shown. */
export const apiKeyCreated = apiKeyListItem.extend({ key: z.string() });
export type ApiKeyCreated = z.infer<typeof apiKeyCreated>;

export const API_KEY_NOT_FOUND = 'API key not found';
export const API_KEY_SCOPE_REFUSED = 'This API key does not allow this call';
