import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { labSettings } from '../../db/schema';

export type LabSettingsRow = typeof labSettings.$inferSelect;
export type LabSettingsValues = Omit<typeof labSettings.$inferInsert, 'id' | 'updatedAt'>;

/** The lab has one settings row (the first, if an old database ever got more). */
export async function readLabSettings(db: DbOrTx): Promise<LabSettingsRow | undefined> {
  const [row] = await db.select().from(labSettings).orderBy(asc(labSettings.id)).limit(1);
  return row;
}

export async function saveLabSettings(db: DbOrTx, values: LabSettingsValues): Promise<LabSettingsRow> {
  const current = await readLabSettings(db);
  const [row] = current
    ? await db
        .update(labSettings)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(labSettings.id, current.id))
        .returning()
    : await db.insert(labSettings).values(values).returning();
  if (!row) throw new Error('lab settings not saved');
  return row;
}
