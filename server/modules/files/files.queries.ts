import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { labSettings, sampleFiles, samples, users } from '../../db/schema';

/** An uploaded sample file by its stored name, with what decides who may read it (its sample's people). */
export async function findSampleFile(db: DbOrTx, fileName: string) {
  const [row] = await db
    .select({ file: sampleFiles, userId: samples.userId, assignedStaffId: samples.assignedStaffId })
    .from(sampleFiles)
    .innerJoin(samples, eq(samples.id, sampleFiles.sampleId))
    .where(eq(sampleFiles.fileName, fileName))
    .limit(1);
  return row;
}

/** Whether a storage key is the lab's current logo. */
export async function isLabLogo(db: DbOrTx, key: string): Promise<boolean> {
  const [settings] = await db
    .select({ logo: labSettings.logo })
    .from(labSettings)
    .where(eq(labSettings.logo, key))
    .limit(1);
  return settings !== undefined;
}

/** The account whose profile image or signature a storage key is. */
export async function findImageOwner(db: DbOrTx, folder: 'profile' | 'signature', key: string) {
  const column = folder === 'profile' ? users.profileImageUrl : users.signature;
  const [owner] = await db.select({ id: users.id }).from(users).where(eq(column, key)).limit(1);
  return owner;
}
