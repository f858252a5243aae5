import { createHash, randomBytes } from 'node:crypto';
import { API_KEY_PREFIX } from '../../common/domain/api-keys';

// An API key is `vlk_` followed by 32 random bytes in base64url (256 bits): guessing one is out of
// reach, so a single fast SHA-256 is enough to store it (a slow password hash would only slow every
// call down). docs/decisions/0026-collections-and-partners.md.

const KEY_BYTES = 32;
/** Characters shown in the list: the prefix and eight of the random part. */
const SHOWN_CHARS = API_KEY_PREFIX.length + 8;

export function newApiKey(): { key: string; prefix: string; hash: string } {
  const key = API_KEY_PREFIX + randomBytes(KEY_BYTES).toString('base64url');
  return { key, prefix: key.slice(0, SHOWN_CHARS), hash: hashApiKey(key) };
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Whether a bearer token is meant as an API key (else it is a session token). */
export const looksLikeApiKey = (token: string) => token.startsWith(API_KEY_PREFIX);
