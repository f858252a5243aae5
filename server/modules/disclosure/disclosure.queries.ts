import { createHash } from 'node:crypto';
import { and, count, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { reportShareLinks, verificationLog } from '../../db/schema';

export type ShareLinkRow = typeof reportShareLinks.$inferSelect;

/** Only this is stored of a share token (docs/decisions/0020-account-hardening-two.md). */
export const shareTokenHash = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');
/** The characters of a token shown in the owner's list. */
export const shareTokenHint = (token: string) => token.slice(-4);

export async function insertShareLink(db: DbOrTx, values: typeof reportShareLinks.$inferInsert) {
  const [row] = await db.insert(reportShareLinks).values(values).returning();
  if (!row) throw new Error('share link not recorded');
  return row;
}

export function listShareLinks(db: DbOrTx, sampleId: number) {
  return db
    .select()
    .from(reportShareLinks)
    .where(eq(reportShareLinks.sampleId, sampleId))
    .orderBy(desc(reportShareLinks.id));
}

/** Revokes one of the sample's links (idempotent: a revoked link keeps its first revocation time). */
export async function revokeShareLink(db: DbOrTx, sampleId: number, linkId: number, at: Date) {
  const where = and(eq(reportShareLinks.id, linkId), eq(reportShareLinks.sampleId, sampleId));
  await db
    .update(reportShareLinks)
    .set({ revokedAt: at })
    .where(and(where, isNull(reportShareLinks.revokedAt)));
  const [row] = await db.select().from(reportShareLinks).where(where).limit(1);
  return row;
}

/** The link behind a token, if it is one of this sample's, not revoked and not expired. */
export async function findActiveShareLink(db: Db, sampleId: number, token: string) {
  const [row] = await db
    .select({ id: reportShareLinks.id })
    .from(reportShareLinks)
    .where(
      and(
        eq(reportShareLinks.tokenHash, shareTokenHash(token)),
        eq(reportShareLinks.sampleId, sampleId),
        isNull(reportShareLinks.revokedAt),
        gt(reportShareLinks.expiresAt, sql`now()`),
      ),
    )
    .limit(1);
  return row;
}

/** One page of the public verifications of a code, newest first, with the share link's label. */
export async function verificationsOf(db: DbOrTx, code: string, window: { offset: number; limit: number }) {
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: verificationLog.id,
        at: verificationLog.at,
        result: verificationLog.result,
        network: verificationLog.network,
        shareLinkId: verificationLog.shareLinkId,
        shareLinkLabel: reportShareLinks.label,
      })
      .from(verificationLog)
      .leftJoin(reportShareLinks, eq(reportShareLinks.id, verificationLog.shareLinkId))
      .where(eq(verificationLog.code, code))
      .orderBy(desc(verificationLog.id))
      .offset(window.offset)
      .limit(window.limit),
    db.select({ n: count() }).from(verificationLog).where(eq(verificationLog.code, code)),
  ]);
  return { rows, total: Number(total?.n ?? 0) };
}
