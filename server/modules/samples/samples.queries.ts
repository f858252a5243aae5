import { asc, desc, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { PersonName } from '../../../common/contracts/samples';
import type { DbOrTx } from '../../db/client';
import { reportElements, sampleFiles, sampleStatusHistory, samples, users } from '../../db/schema';

export type NewSample = typeof samples.$inferInsert;
export type NewSampleFile = Omit<typeof sampleFiles.$inferInsert, 'sampleId'>;
export type SampleRow = typeof samples.$inferSelect;
export type SampleFileRow = typeof sampleFiles.$inferSelect;

/** The sample, its files and its first status-history row ('submitted'): call inside one transaction. */
export async function insertSubmittedSample(
  tx: DbOrTx,
  sample: NewSample,
  files: NewSampleFile[],
): Promise<{ sample: SampleRow; files: SampleFileRow[] }> {
  const [row] = await tx
    .insert(samples)
    .values({ ...sample, status: 'submitted' })
    .returning();
  if (!row) throw new Error('sample not inserted');
  const fileRows = files.length
    ? await tx
        .insert(sampleFiles)
        .values(files.map((f) => ({ ...f, sampleId: row.id })))
        .returning()
    : [];
  await tx
    .insert(sampleStatusHistory)
    .values({ sampleId: row.id, status: 'submitted', comment: 'Sample submitted', updatedBy: sample.userId });
  return { sample: row, files: fileRows };
}

/** The caller's own samples, newest first. */
export function listOwnSamples(db: DbOrTx, userId: number): Promise<SampleRow[]> {
  return db.select().from(samples).where(eq(samples.userId, userId)).orderBy(desc(samples.id));
}

export async function findSample(db: DbOrTx, id: number): Promise<SampleRow | undefined> {
  const [row] = await db.select().from(samples).where(eq(samples.id, id)).limit(1);
  return row;
}

const owner = alias(users, 'owner');
const staff = alias(users, 'staff');
const author = alias(users, 'author');

/** Everything the sample page shows: files, report elements, status history, owner, assigned staff. */
export async function findSampleDetail(db: DbOrTx, id: number) {
  const [head] = await db
    .select({
      sample: samples,
      user: { firstName: owner.firstName, lastName: owner.lastName },
      assignedStaff: { id: staff.id, firstName: staff.firstName, lastName: staff.lastName },
    })
    .from(samples)
    .leftJoin(owner, eq(owner.id, samples.userId))
    .leftJoin(staff, eq(staff.id, samples.assignedStaffId))
    .where(eq(samples.id, id))
    .limit(1);
  if (!head) return undefined;
  const [files, elements, history] = await Promise.all([
    db.select().from(sampleFiles).where(eq(sampleFiles.sampleId, id)).orderBy(asc(sampleFiles.id)),
    db.select().from(reportElements).where(eq(reportElements.sampleId, id)).orderBy(asc(reportElements.id)),
    db
      .select({
        id: sampleStatusHistory.id,
        status: sampleStatusHistory.status,
        comment: sampleStatusHistory.comment,
        createdAt: sampleStatusHistory.createdAt,
        authorId: author.id,
        authorFirstName: author.firstName,
        authorLastName: author.lastName,
      })
      .from(sampleStatusHistory)
      .leftJoin(author, eq(author.id, sampleStatusHistory.updatedBy))
      .where(eq(sampleStatusHistory.sampleId, id))
      .orderBy(asc(sampleStatusHistory.id)),
  ]);
  const user: PersonName | null = head.user;
  const assignedStaff: PersonName | null = head.assignedStaff?.id ? head.assignedStaff : null;
  return { sample: head.sample, user, assignedStaff, files, elements, history };
}
