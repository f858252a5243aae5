// What an API key may be allowed to do (docs/product/partners.md). Each call that a key may make
// names exactly one of these scopes; every other call answers a key 403.
export const API_KEY_SCOPES = ['samples:read', 'samples:write', 'reports:read', 'webhooks:manage'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export const API_KEY_SCOPE_LABELS: Record<ApiKeyScope, string> = {
  'samples:read': 'Read samples and collections',
  'samples:write': 'Submit samples and fill collections',
  'reports:read': 'Download report PDFs',
  'webhooks:manage': 'Manage webhooks',
};

/** Every key starts with this, so a leaked key is recognisable (secret scanners, logs). */
export const API_KEY_PREFIX = 'vlk_';

/** Requests one key may make per minute (docs/product/security.md). */
export const API_KEY_REQUESTS_PER_MINUTE = 300;

/** Keys one account may hold at once. */
export const MAX_API_KEYS_PER_ACCOUNT = 20;
