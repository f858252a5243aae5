import { and, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { custodyEvents, users } from '../../db/schema';

/**
 * What the label prints besides the sample's own columns: the owner's surname (else the last word of
 * the submitter's name) and when the item arrived.
 */
export async function ownerOfSample(
  db: DbOrTx,
  sample: { id: number; userId: number; submitterName: string },
): Promise<{ surname: string; receivedAt: Date | null }> {
  const [[owner], [arrival]] = await Promise.all([
    db.select({ lastName: users.lastName }).from(users).where(eq(users.id, sample.userId)).limit(1),
    db
      .select({ at: custodyEvents.at })
      .from(custodyEvents)
      .where(and(eq(custodyEvents.sampleId, sample.id), eq(custodyEvents.event, 'received')))
      .orderBy(desc(custodyEvents.id))
      .limit(1),
  ]);
  const surname = owner?.lastName?.trim() || sample.submitterName.trim().split(/\s+/).at(-1) || '';
  return { surname, receivedAt: arrival?.at ?? null };
}
