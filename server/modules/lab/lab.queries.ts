import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { type LabSettingsRow, readLabSettings } from '../../db/lab-settings';
import { labSettings } from '../../db/schema';

export type LabSettingsValues = Omit<typeof labSettings.$inferInsert, 'id' | 'updatedAt'>;

export async function writeLabSettings(db: DbOrTx, values: LabSettingsValues): Promise<LabSettingsRow> {
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
