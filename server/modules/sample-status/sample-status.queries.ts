import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { sampleStatusHistory, samples } from '../../db/schema';
import type { SampleRow } from '../../db/samples';

/** The new status and its history row (docs/product/statuses.md). */
export async function setSampleStatus(
  db: DbOrTx,
  input: { sampleId: number; status: string; comment: string | null; updatedBy: number },
): Promise<SampleRow> {
  const now = new Date();
  const [row] = await db
    .update(samples)
    .set({ status: input.status, lastUpdated: now, updatedAt: now })
    .where(eq(samples.id, input.sampleId))
    .returning();
  await db.insert(sampleStatusHistory).values({
    sampleId: input.sampleId,
    status: input.status,
    comment: input.comment,
    updatedBy: input.updatedBy,
  });
  if (!row) throw new Error('sample vanished during status change');
  return row;
}
