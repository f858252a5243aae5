import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { and, eq, isNotNull, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { StartupError } from '../../plugins/auth';
import { readOrCreatePrivateFile } from '../../storage/private-files';

// Authenticator keys at rest (docs/product/security.md, "Two-factor keys"). A TOTP key must be
// readable by the server to check a code, so it cannot be hashed like a password or a recovery code;
// it is encrypted instead, with a key kept outside the database (TOTP_KEY, else DATA_DIR/totp-key).
// A copy of the database alone — a leaked backup, a read-only SQL injection — then gives nobody the
// codes of the lab's staff and admins.

/** The stored form: `v1.` + base64url(iv ‖ ciphertext ‖ tag), AES-256-GCM. */
const PREFIX = 'v1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;
const GENERATED_KEY_FILE = 'totp-key';

export type TotpVault = {
  /** The stored form of `secret` (base32) for the account `userId`. */
  seal(userId: number, secret: string): string;
  /**
   * The base32 key of a stored value. A value stored before keys were encrypted is returned as it is
   * (start-up seals those, `sealStoredTotpKeys`). Throws when the value was sealed with another key
   * or for another account, or was altered.
   */
  open(userId: number, stored: string): string;
};

/** Why the key could not be opened: a server fault (a changed TOTP_KEY), never the client's. */
export class TotpKeyUnreadable extends Error {}

/**
 * A vault over a 32-byte key. The account's id is authenticated with each value, so a value copied
 * into another account's row does not open there.
 */
export function createTotpVault(key: Buffer): TotpVault {
  if (key.length !== KEY_BYTES) throw new Error(`the two-factor key must be ${KEY_BYTES} bytes`);
  const aad = (userId: number) => Buffer.from(`totp:${userId}`);
  return {
    seal(userId, secret) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(aad(userId));
      const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return PREFIX + Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
    },
    open(userId, stored) {
      if (!stored.startsWith(PREFIX)) return stored;
      const raw = Buffer.from(stored.slice(PREFIX.length), 'base64url');
      if (raw.length <= IV_BYTES + TAG_BYTES) throw new TotpKeyUnreadable('two-factor key too short');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
        decipher.setAAD(aad(userId));
        decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
        const body = raw.subarray(IV_BYTES, raw.length - TAG_BYTES);
        return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
      } catch {
        throw new TotpKeyUnreadable(
          'a two-factor key cannot be opened with this TOTP_KEY (was the key changed or the row copied?)',
        );
      }
    },
  };
}

/** Whether a stored value is sealed (as opposed to a key stored before encryption). */
export const isSealed = (stored: string) => stored.startsWith(PREFIX);

/**
 * TOTP_KEY (32 bytes as 64 hex characters or as base64/base64url), else a key generated once into
 * DATA_DIR/totp-key (mode 0600, written atomically, so instances sharing DATA_DIR share it). A
 * TOTP_KEY of another length stops start-up.
 */
export function resolveTotpKey(configured: string | undefined, dataDir: string): Buffer {
  if (configured) {
    const text = configured.trim();
    const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64url');
    if (key.length !== KEY_BYTES)
      throw new StartupError(
        `TOTP_KEY must be ${KEY_BYTES} bytes, as 64 hex characters or base64: refusing to start.`,
      );
    return key;
  }
  const file = join(dataDir, GENERATED_KEY_FILE);
  const text = readOrCreatePrivateFile(file, () => randomBytes(KEY_BYTES).toString('base64url'));
  const key = Buffer.from(text.trim(), 'base64url');
  if (key.length !== KEY_BYTES)
    throw new StartupError(`${file} does not hold a ${KEY_BYTES}-byte key: refusing to start.`);
  return key;
}

/**
 * At start-up: seals every key still stored in the clear (written before keys were encrypted), each
 * by a conditional update so that instances starting together cannot overwrite each other, and
 * counts the sealed keys this vault cannot open (a changed TOTP_KEY) for the operator's log.
 */
export async function sealStoredTotpKeys(
  db: Db,
  vault: TotpVault,
): Promise<{ sealed: number; unreadable: number }> {
  const rows = await db
    .select({ id: users.id, secret: users.totpSecret, pending: users.totpPendingSecret })
    .from(users)
    .where(or(isNotNull(users.totpSecret), isNotNull(users.totpPendingSecret)));
  let sealed = 0;
  let unreadable = 0;
  for (const row of rows) {
    for (const column of ['secret', 'pending'] as const) {
      const stored = row[column];
      if (stored === null) continue;
      if (isSealed(stored)) {
        try {
          vault.open(row.id, stored);
        } catch {
          unreadable += 1;
        }
        continue;
      }
      const field = column === 'secret' ? users.totpSecret : users.totpPendingSecret;
      const done = await db
        .update(users)
        .set(
          column === 'secret'
            ? { totpSecret: vault.seal(row.id, stored) }
            : { totpPendingSecret: vault.seal(row.id, stored) },
        )
        .where(and(eq(users.id, row.id), eq(field, stored)))
        .returning({ id: users.id });
      sealed += done.length;
    }
  }
  return { sealed, unreadable };
}
