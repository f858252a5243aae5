import { and, count, desc, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { apiKeys } from '../../db/schema';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

export function listApiKeys(db: DbOrTx, userId: number) {
  return db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .orderBy(desc(apiKeys.id));
}

export async function countApiKeys(db: DbOrTx, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)));
  return row?.n ?? 0;
}

export async function insertApiKey(
  db: DbOrTx,
  values: { userId: number; name: string; prefix: string; keyHash: string; scopes: string[] },
): Promise<ApiKeyRow> {
  const [row] = await db.insert(apiKeys).values(values).returning();
  if (!row) throw new Error('api key not stored');
  return row;
}

/** Revokes one of the owner's keys; answers the row, or undefined when it is not theirs or already gone. */
export async function revokeApiKey(db: DbOrTx, userId: number, id: number): Promise<ApiKeyRow | undefined> {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .returning();
  return row;
}
