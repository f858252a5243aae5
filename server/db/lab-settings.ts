import { asc } from 'drizzle-orm';
import type { DbOrTx } from './client';
import { labSettings } from './schema';

// The lab's settings row, read by the modules, the mailer and the seed: one home for the query.

export type LabSettingsRow = typeof labSettings.$inferSelect;

/** The lab has one settings row (the first, if an old database ever got more). */
export async function readLabSettings(db: DbOrTx): Promise<LabSettingsRow | undefined> {
  const [row] = await db.select().from(labSettings).orderBy(asc(labSettings.id)).limit(1);
  return row;
}
