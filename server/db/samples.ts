import { eq } from 'drizzle-orm';
import type { DbOrTx } from './client';
import { samples } from './schema';

// A sample's row, read by several modules (workflow, reports, quotes, disclosure): one home for the
// row type and the two reads by id, so no module imports another for them.

export type SampleRow = typeof samples.$inferSelect;

export async function findSample(db: DbOrTx, id: number): Promise<SampleRow | undefined> {
  const [row] = await db.select().from(samples).where(eq(samples.id, id)).limit(1);
  return row;
}

/** The row locked for the rest of the transaction (status changes, quotes). */
export async function findSampleForUpdate(db: DbOrTx, id: number): Promise<SampleRow | undefined> {
  const [row] = await db.select().from(samples).where(eq(samples.id, id)).for('update').limit(1);
  return row;
}
