import { and, desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client';
import {
  type RevisionElement,
  reportElements,
  reportReviewDecisions,
  reportRevisions,
  sampleFiles,
  samples,
  users,
} from '../../db/schema';
import type { SampleRow } from '../../db/samples';

export type { SampleRow };
export { findSample } from '../../db/samples';

export type RevisionRow = typeof reportRevisions.$inferSelect;
export type ElementValues = RevisionElement;

export async function findSampleByReportCode(db: DbOrTx, code: string): Promise<SampleRow | undefined> {
  const [row] = await db.select().from(samples).where(eq(samples.reportCode, code)).limit(1);
  return row;
}

/** A sample's photos (not its documents): ids, the names they were uploaded under, where their copies stand. */
export async function findSamplePhotos(db: DbOrTx, sampleId: number) {
  return db
    .select({
      id: sampleFiles.id,
      originalName: sampleFiles.originalName,
      fileName: sampleFiles.fileName,
      copiesState: sampleFiles.copiesState,
    })
    .from(sampleFiles)
    .where(and(eq(sampleFiles.sampleId, sampleId), eq(sampleFiles.fileCategory, 'photo')));
}

export async function findUserNameAndSignature(db: DbOrTx, id: number) {
  const [row] = await db
    .select({
      firstName: users.firstName,
      lastName: users.lastName,
      signature: users.signature,
      qualifications: users.qualifications,
    })
    .from(users)
    .where(eq(users.id, id))
    .limit(1);
  return row;
}

/** The elements of one generation replace the previous set (atomically, in the caller's transaction: docs/product/reports-and-verification.md). */
export async function replaceReportElements(tx: DbOrTx, sampleId: number, elements: ElementValues[]) {
  await tx.delete(reportElements).where(eq(reportElements.sampleId, sampleId));
  if (elements.length === 0) return;
  await tx.insert(reportElements).values(
    elements.map((e) => ({
      sampleId,
      element: e.element,
      percentage: e.percentage.toFixed(2),
      purity: e.purity,
      quality: e.quality,
      notes: e.notes,
    })),
  );
}

export async function insertRevision(tx: DbOrTx, values: typeof reportRevisions.$inferInsert) {
  const [row] = await tx.insert(reportRevisions).values(values).returning();
  if (!row) throw new Error('revision not recorded');
  return row;
}

/** Sets the sample's code and issue fields; `expectedCode` guards against a concurrent first issue. */
export async function markSampleIssued(
  tx: DbOrTx,
  sampleId: number,
  values: { reportCode: string; issuedAt: Date; issuedBy: number; revalueBy: string | null },
  expectedCode: string | null,
): Promise<boolean> {
  const rows = await tx
    .update(samples)
    .set({
      revalueBy: values.revalueBy,
      reportCode: values.reportCode,
      reportGenerated: true,
      reportGeneratedAt: values.issuedAt,
      reportGeneratedBy: values.issuedBy,
      lastUpdated: values.issuedAt,
      updatedAt: values.issuedAt,
    })
    .where(
      and(
        eq(samples.id, sampleId),
        expectedCode === null ? sql`${samples.reportCode} is null` : eq(samples.reportCode, expectedCode),
      ),
    )
    .returning({ id: samples.id });
  return rows.length === 1;
}

export async function markReportRevoked(
  db: DbOrTx,
  sampleId: number,
  values: { reason: string; at: Date; by: number },
): Promise<SampleRow | undefined> {
  const [row] = await db
    .update(samples)
    .set({
      reportRevokedAt: values.at,
      reportRevokedReason: values.reason,
      reportRevokedBy: values.by,
      lastUpdated: values.at,
      updatedAt: values.at,
    })
    .where(and(eq(samples.id, sampleId), sql`${samples.reportRevokedAt} is null`))
    .returning();
  return row;
}

/** The sample's newest revision in any state: the current issued one, or a draft (awaiting review, sent back) after it. */
export async function latestRevisionOfSample(db: DbOrTx, sampleId: number): Promise<RevisionRow | undefined> {
  const [row] = await db
    .select()
    .from(reportRevisions)
    .where(eq(reportRevisions.sampleId, sampleId))
    .orderBy(desc(reportRevisions.revision))
    .limit(1);
  return row;
}

/** The newest issued revision of a code: the only one the owner and the public are ever given. */
export async function latestIssuedRevision(db: DbOrTx, code: string): Promise<RevisionRow | undefined> {
  const [row] = await db
    .select()
    .from(reportRevisions)
    .where(and(eq(reportRevisions.reportCode, code), eq(reportRevisions.state, 'issued')))
    .orderBy(desc(reportRevisions.revision))
    .limit(1);
  return row;
}

export async function deleteRevision(tx: DbOrTx, id: number) {
  await tx.delete(reportRevisions).where(eq(reportRevisions.id, id));
}

export async function updateRevision(
  tx: DbOrTx,
  id: number,
  values: Partial<Omit<typeof reportRevisions.$inferInsert, 'id'>>,
): Promise<RevisionRow> {
  const [row] = await tx.update(reportRevisions).set(values).where(eq(reportRevisions.id, id)).returning();
  if (!row) throw new Error('revision not updated');
  return row;
}

/** One decision of the second review, kept for the sample's history (docs/product/valuation-report.md). */
export async function insertReviewDecision(tx: DbOrTx, values: typeof reportReviewDecisions.$inferInsert) {
  await tx.insert(reportReviewDecisions).values(values);
}

/** Every review decision on a sample, newest first, with the reviewer's and the author's names. */
export async function listReviewDecisions(db: DbOrTx, sampleId: number) {
  const reviewer = alias(users, 'reviewer');
  const author = alias(users, 'author');
  return db
    .select({
      id: reportReviewDecisions.id,
      reportCode: reportReviewDecisions.reportCode,
      revision: reportReviewDecisions.revision,
      decision: reportReviewDecisions.decision,
      submittedAt: reportReviewDecisions.submittedAt,
      decidedAt: reportReviewDecisions.decidedAt,
      comment: reportReviewDecisions.comment,
      reviewerId: reportReviewDecisions.reviewerId,
      reviewer: { firstName: reviewer.firstName, lastName: reviewer.lastName },
      authorId: reportReviewDecisions.authorId,
      author: { firstName: author.firstName, lastName: author.lastName },
    })
    .from(reportReviewDecisions)
    .leftJoin(reviewer, eq(reviewer.id, reportReviewDecisions.reviewerId))
    .leftJoin(author, eq(author.id, reportReviewDecisions.authorId))
    .where(eq(reportReviewDecisions.sampleId, sampleId))
    .orderBy(desc(reportReviewDecisions.decidedAt), desc(reportReviewDecisions.id));
}
