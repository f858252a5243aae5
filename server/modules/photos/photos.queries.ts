import { and, asc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { PhotoCopyState } from '../../../common/domain/photos';
import type { Db } from '../../db/client';
import { reportRevisions, sampleFiles, samples } from '../../db/schema';

const photoFileColumns = {
  id: sampleFiles.id,
  sampleId: sampleFiles.sampleId,
  fileName: sampleFiles.fileName,
  originalName: sampleFiles.originalName,
  fileType: sampleFiles.fileType,
  fileCategory: sampleFiles.fileCategory,
  copiesState: sampleFiles.copiesState,
  ownerId: samples.userId,
  assignedStaffId: samples.assignedStaffId,
};

/** A photo with what the copy maker and the copy routes need, and its sample's owner. */
export async function findPhotoFile(db: Db, fileId: number) {
  const [row] = await db
    .select(photoFileColumns)
    .from(sampleFiles)
    .innerJoin(samples, eq(samples.id, sampleFiles.sampleId))
    .where(eq(sampleFiles.id, fileId))
    .limit(1);
  return row;
}

/**
 * A photo of the sample behind a report code, only while the report's current issued revision shows it
 * (its `photoIds`): what public verification may serve (docs/product/photos.md). A revision awaiting
 * review, a photo staff left out or took off the report, and another sample's photo are not found.
 */
export async function findReportPhoto(db: Db, code: string, fileId: number) {
  const [row] = await db
    .select(photoFileColumns)
    .from(sampleFiles)
    .innerJoin(samples, eq(samples.id, sampleFiles.sampleId))
    .where(
      and(
        eq(sampleFiles.id, fileId),
        eq(samples.reportCode, code),
        sql`(select ${reportRevisions.content} -> 'photoIds' from ${reportRevisions}
              where ${reportRevisions.reportCode} = ${samples.reportCode} and ${reportRevisions.state} = 'issued'
              order by ${reportRevisions.revision} desc limit 1) @> to_jsonb(${sampleFiles.id})`,
      ),
    )
    .limit(1);
  return row;
}
export type PhotoFile = NonNullable<Awaited<ReturnType<typeof findPhotoFile>>>;

export async function setCopiesState(db: Db, fileId: number, state: PhotoCopyState): Promise<void> {
  await db.update(sampleFiles).set({ copiesState: state }).where(eq(sampleFiles.id, fileId));
}

const missingCopies = and(
  eq(sampleFiles.fileCategory, 'photo'),
  or(isNull(sampleFiles.copiesState), eq(sampleFiles.copiesState, 'pending')),
);

/** How many photos have no copies yet: stored before copies existed (null) or still waiting. */
export async function countPhotosWithoutCopies(db: Db): Promise<{ never: number; pending: number }> {
  const [row] = await db
    .select({
      never: sql<number>`count(*) filter (where ${sampleFiles.copiesState} is null)`.mapWith(Number),
      pending: sql<number>`count(*) filter (where ${sampleFiles.copiesState} = 'pending')`.mapWith(Number),
    })
    .from(sampleFiles)
    .where(missingCopies);
  return row ?? { never: 0, pending: 0 };
}

/** The next photos without copies after `afterId`, in id order (the backfill walks them in pages). */
export function listPhotosWithoutCopies(db: Db, afterId: number, limit: number) {
  return db
    .select({ id: sampleFiles.id })
    .from(sampleFiles)
    .where(and(missingCopies, gt(sampleFiles.id, afterId)))
    .orderBy(asc(sampleFiles.id))
    .limit(limit);
}
