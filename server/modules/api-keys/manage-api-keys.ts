import { API_KEY_NOT_FOUND } from '../../../common/contracts/api-keys';
import { MAX_API_KEYS_PER_ACCOUNT } from '../../../common/domain/api-keys';
import { type AuditWho, recordAudit } from '../../audit/audit';
import type { Db } from '../../db/client';
import { newApiKey } from '../../plugins/api-key-secret';
import { conflict, notFound } from '../../plugins/errors';
import { type ApiKeyRow, countApiKeys, insertApiKey, revokeApiKey } from './api-keys.queries';

// A partner's API keys (docs/product/partners.md): made (at most MAX_API_KEYS_PER_ACCOUNT, the key
// itself shown once, only its hash kept) and revoked, each with its audit event in one transaction.

/** Makes a key; answers its row and the key, which is never shown again. */
export function createApiKey(
  db: Db,
  user: { id: number },
  who: AuditWho,
  body: { name: string; scopes: string[] },
): Promise<{ row: ApiKeyRow; key: string }> {
  return db.transaction(async (tx) => {
    if ((await countApiKeys(tx, user.id)) >= MAX_API_KEYS_PER_ACCOUNT)
      throw conflict(`You can hold at most ${MAX_API_KEYS_PER_ACCOUNT} API keys: revoke one first`);
    const secret = newApiKey();
    const row = await insertApiKey(tx, {
      userId: user.id,
      name: body.name,
      prefix: secret.prefix,
      keyHash: secret.hash,
      scopes: body.scopes,
    });
    await recordAudit(tx, {
      ...who,
      action: 'api_key.created',
      subject: { type: 'api_key', id: row.id },
      after: { name: row.name, scopes: row.scopes, prefix: row.prefix },
    });
    return { row, key: secret.key };
  });
}

/** Revokes one of the caller's keys: it stops working at once. Someone else's reads as unknown. */
export function revokeOwnApiKey(db: Db, user: { id: number }, who: AuditWho, id: number): Promise<ApiKeyRow> {
  return db.transaction(async (tx) => {
    const revoked = await revokeApiKey(tx, user.id, id);
    if (!revoked) throw notFound(API_KEY_NOT_FOUND);
    await recordAudit(tx, {
      ...who,
      action: 'api_key.revoked',
      subject: { type: 'api_key', id: revoked.id },
      before: { name: revoked.name, scopes: revoked.scopes, prefix: revoked.prefix },
    });
    return revoked;
  });
}
