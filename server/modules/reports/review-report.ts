import { and, desc, eq, isNull, ne, or } from 'drizzle-orm';
import {
  fullReportContent,
  type IssueReportResponse,
  REPORT_COMPLETED_NOTE,
} from '../../../common/contracts/reports';
import {
  type AwaitingReviewItem,
  REVIEW_MESSAGES,
  type RejectReportBody,
  type ReportReview,
  type ReviewDecision,
} from '../../../common/contracts/review';
import { displaySampleId, normalizeStatus } from '../../../common/domain/samples';
import { recordAudit } from '../../audit/audit';
import { reportRevisions, samples, users } from '../../db/schema';
import { mailReviewDecision } from '../../mail/notifications';
import type { DbOrTx } from '../../db/client';
import type { AuthUser } from '../../plugins/auth';
import { conflict, forbidden, notFound } from '../../plugins/errors';
import { personName, signatoriesOfApproval, signatoriesOfDraft } from './signatories';
import { isoDate, isoDateOrNull } from '../../time';
import { canReadSample, canReviewReports, canReviewRevision } from '../../policies/samples';
import {
  assertLatestUnchanged,
  type IssueDeps,
  certificationOf,
  pdfInputFor,
  publishRevision,
  renderRevision,
  reportStorageKey,
  REVOKED_REISSUE_MESSAGE,
  withReportLock,
} from './issue-report';
import { presentReportContent } from './report-content';
import { renderReportPdf } from './report-pdf';
import { REPORT_PREVIEW_BAND } from '../../../common/domain/reports';
import { changeSampleStatus } from '../sample-status/change-status';
import {
  findSample,
  findUserNameAndSignature,
  insertReviewDecision,
  latestRevisionOfSample,
  listReviewDecisions,
  type RevisionRow,
  type SampleRow,
  updateRevision,
} from './reports.queries';

// The second review (docs/product/valuation-report.md, "Second review"): a revision issued while the
// lab requires review waits as `awaiting-review` until another staff member or an admin approves it
// (it becomes public, exactly as an issue without review would have made it) or sends it back with a
// comment (`returned`: nothing public changes; the author's next issue replaces it).

/** The sample and its revision awaiting review, for a reviewer who may act on it; refusals in the contract's words. */
async function revisionToReview(deps: IssueDeps, user: AuthUser, sampleId: number) {
  if (!canReviewReports(user)) throw forbidden(REVIEW_MESSAGES.notAllowed);
  const sample = await findSample(deps.db, sampleId);
  if (!sample || !canReadSample(user, sample)) throw notFound('Sample not found');
  const draft = await latestRevisionOfSample(deps.db, sample.id);
  if (draft?.state !== 'awaiting-review') throw conflict(REVIEW_MESSAGES.nothingAwaiting);
  if (!canReviewRevision(user, draft)) throw forbidden(REVIEW_MESSAGES.ownRevision);
  return { sample, draft };
}

/**
 * Approves the revision awaiting review: the PDF is drawn again naming the author ("Analyzed By")
 * and the reviewer ("Reviewed By") with their signatures, signed and stored, and the revision is
 * published under the same lock and in one transaction, as an issue without review would be.
 */
export async function approveReport(
  deps: IssueDeps,
  user: AuthUser,
  sampleId: number,
  ip?: string | null,
): Promise<IssueReportResponse> {
  const { sample, draft } = await revisionToReview(deps, user, sampleId);
  if (sample.reportRevokedAt) throw conflict(REVOKED_REISSUE_MESSAGE);
  const author = draft.issuedBy ?? user.id;
  const elements = draft.elements ?? [];
  const content = fullReportContent(draft.content ?? emptyContent);
  const issuedAt = new Date();
  const base = await pdfInputFor(
    deps,
    sample,
    elements,
    content,
    signatoriesOfApproval(draft.issuedBy, user.id, issuedAt),
  );
  const at = { reportCode: draft.reportCode, revision: draft.revision, issuedAt };
  const { pdf, sha256 } = await renderRevision(deps, base, at);
  const storageKey = reportStorageKey(draft.reportCode, draft.revision);
  await withReportLock(deps, sample.id, async (tx, store) => {
    await assertLatestUnchanged(tx, sample.id, draft);
    await store(storageKey, pdf);
    await publishRevision(tx, deps, sample, {
      ...at,
      issuedBy: author,
      elements,
      revalueBy: content.revalueBy,
    });
    // The author asked for the sample to be completed with this report: it is, now that it is out.
    if (draft.completeOnApproval && normalizeStatus(sample.status) !== 'completed')
      await changeSampleStatus(tx, deps.mailer, { actor: user, ip }, sample, {
        status: 'completed',
        comment: REPORT_COMPLETED_NOTE,
      });
    await updateRevision(tx, draft.id, {
      state: 'issued',
      storageKey,
      sha256,
      byteSize: pdf.length,
      issuedAt,
      analyzedBy: author,
      reviewedBy: user.id,
      reviewedAt: issuedAt,
      reviewComment: null,
      content: { ...content, certification: certificationOf(base) },
    });
    await recordDecision(tx, deps, user, sample, draft, { decidedAt: issuedAt, comment: null }, ip);
  });
  // The unsigned draft is no longer needed: the signed, reviewed file replaces it.
  await deps.storage.delete(draft.storageKey).catch(() => {});
  return {
    reportCode: draft.reportCode,
    revision: draft.revision,
    issuedAt: isoDate(issuedAt),
    sha256,
    action: sample.reportCode ? 'updated' : 'generated',
    state: 'issued',
    message: REVIEW_MESSAGES.approved,
  };
}

/** Sends the revision back to its author with the reviewer's comment; nothing public changes. */
export async function rejectReport(
  deps: IssueDeps,
  user: AuthUser,
  sampleId: number,
  body: RejectReportBody,
  ip?: string | null,
): Promise<ReportReview> {
  const { sample, draft } = await revisionToReview(deps, user, sampleId);
  const returned = await withReportLock(deps, sample.id, async (tx) => {
    await assertLatestUnchanged(tx, sample.id, draft);
    const decidedAt = new Date();
    const row = await updateRevision(tx, draft.id, {
      state: 'returned',
      reviewedBy: user.id,
      reviewedAt: decidedAt,
      reviewComment: body.comment,
    });
    await recordDecision(tx, deps, user, sample, draft, { decidedAt, comment: body.comment }, ip);
    return row;
  });
  return presentReview(deps, user, sample, returned);
}

/**
 * In the decision's transaction: the decision joins the sample's review history (kept when the author
 * re-issues) and the author's mail is queued (docs/product/mail.md). A null comment is an approval.
 */
async function recordDecision(
  tx: DbOrTx,
  deps: IssueDeps,
  reviewer: AuthUser,
  sample: SampleRow,
  draft: RevisionRow,
  { decidedAt, comment }: { decidedAt: Date; comment: string | null },
  ip?: string | null,
) {
  await insertReviewDecision(tx, {
    sampleId: sample.id,
    reportCode: draft.reportCode,
    revision: draft.revision,
    decision: comment === null ? 'approved' : 'returned',
    reviewerId: reviewer.id,
    authorId: draft.issuedBy,
    submittedAt: draft.issuedAt,
    decidedAt,
    comment,
  });
  await mailReviewDecision(tx, deps.mailer, sample, {
    authorId: draft.issuedBy,
    reviewerName: personName(reviewer) || reviewer.email,
    reportCode: draft.reportCode,
    revision: draft.revision,
    comment,
  });
  await recordAudit(tx, {
    actor: reviewer,
    ip,
    action: comment === null ? 'report.approved' : 'report.rejected',
    subject: { type: 'sample', id: sample.id },
    before: { reportCode: draft.reportCode, revision: draft.revision, state: draft.state },
    after: {
      reportCode: draft.reportCode,
      revision: draft.revision,
      state: comment === null ? 'issued' : 'returned',
      authorId: draft.issuedBy,
      ...(comment === null ? {} : { comment }),
    },
  });
}

/**
 * The draft awaiting review (or sent back) as its PDF will read, drawn now for the lab: the same
 * parts the approval will print, "Reviewed By" still awaiting, unsigned, and 'DRAFT — not issued' on
 * every page so no copy can pass for the issued report.
 */
export async function readDraftPdf(
  deps: IssueDeps,
  user: AuthUser,
  sampleId: number,
): Promise<{ pdf: Buffer; fileName: string }> {
  if (!canReviewReports(user)) throw forbidden(REVIEW_MESSAGES.notAllowed);
  const sample = await findSample(deps.db, sampleId);
  if (!sample || !canReadSample(user, sample)) throw notFound('Sample not found');
  const draft = await latestRevisionOfSample(deps.db, sample.id);
  if (!draft || draft.state === 'issued') throw conflict(REVIEW_MESSAGES.nothingAwaiting);
  const content = fullReportContent(draft.content ?? emptyContent);
  const base = await pdfInputFor(
    deps,
    sample,
    draft.elements ?? [],
    content,
    signatoriesOfDraft(draft.issuedBy, user.id),
  );
  const pdf = await renderReportPdf({
    ...base,
    reportCode: draft.reportCode,
    revision: draft.revision,
    issuedAt: draft.issuedAt,
    verifyUrl: `${deps.config.publicUrl}/verify-report?code=${draft.reportCode}`,
    draftBand: REPORT_PREVIEW_BAND,
  });
  return { pdf, fileName: `Report-draft-${base.sample.displayId}-r${draft.revision}.pdf` };
}

/** Every approval and send-back on the sample, newest first: the lab's record of its second reviews. */
export async function readReviewHistory(
  deps: IssueDeps,
  user: AuthUser,
  sampleId: number,
): Promise<ReviewDecision[]> {
  if (!canReviewReports(user)) throw forbidden(REVIEW_MESSAGES.notAllowed);
  const sample = await findSample(deps.db, sampleId);
  if (!sample || !canReadSample(user, sample)) throw notFound('Sample not found');
  const rows = await listReviewDecisions(deps.db, sample.id);
  const named = (id: number | null, p: { firstName: string | null; lastName: string | null } | null) =>
    id && p ? { id, ...p } : null;
  return rows.map((r) => ({
    id: r.id,
    reportCode: r.reportCode,
    revision: r.revision,
    decision: r.decision === 'returned' ? 'returned' : 'approved',
    reviewer: named(r.reviewerId, r.reviewer),
    author: named(r.authorId, r.author),
    submittedAt: isoDateOrNull(r.submittedAt),
    decidedAt: isoDate(r.decidedAt),
    comment: r.comment,
  }));
}

/** The sample's revision awaiting review or sent back, for the lab (null when its newest revision is public). */
export async function readReview(
  deps: IssueDeps,
  user: AuthUser,
  sampleId: number,
): Promise<ReportReview | null> {
  if (!canReviewReports(user)) throw forbidden(REVIEW_MESSAGES.notAllowed);
  const sample = await findSample(deps.db, sampleId);
  if (!sample || !canReadSample(user, sample)) throw notFound('Sample not found');
  const latest = await latestRevisionOfSample(deps.db, sample.id);
  if (!latest || latest.state === 'issued') return null;
  return presentReview(deps, user, sample, latest);
}

async function presentReview(
  deps: IssueDeps,
  user: AuthUser,
  sample: SampleRow,
  row: RevisionRow,
): Promise<ReportReview> {
  const [author, reviewer] = await Promise.all([
    row.issuedBy ? findUserNameAndSignature(deps.db, row.issuedBy) : undefined,
    row.reviewedBy ? findUserNameAndSignature(deps.db, row.reviewedBy) : undefined,
  ]);
  const named = (id: number | null, p: typeof author) =>
    id && p ? { id, firstName: p.firstName, lastName: p.lastName } : null;
  return {
    sampleId: sample.id,
    reportCode: row.reportCode,
    revision: row.revision,
    state: row.state === 'returned' ? 'returned' : 'awaiting-review',
    submittedAt: isoDate(row.issuedAt),
    author: named(row.issuedBy, author),
    reviewer: named(row.reviewedBy, reviewer),
    reviewedAt: isoDateOrNull(row.reviewedAt),
    comment: row.reviewComment,
    content: presentReportContent(row.content),
    elements: row.elements ?? [],
    completeOnApproval: row.completeOnApproval,
    canReview: row.state === 'awaiting-review' && canReviewRevision(user, row),
  };
}

/**
 * Every revision awaiting review that `user` may approve (so never their own), oldest first: the
 * queue of the staff dashboard's "Awaiting your review".
 */
export async function listAwaitingReview(deps: IssueDeps, user: AuthUser): Promise<AwaitingReviewItem[]> {
  if (!canReviewReports(user)) throw forbidden(REVIEW_MESSAGES.notAllowed);
  const rows = await deps.db
    .select({
      sampleId: samples.id,
      itemName: samples.itemName,
      reportCode: reportRevisions.reportCode,
      revision: reportRevisions.revision,
      submittedAt: reportRevisions.issuedAt,
      authorId: reportRevisions.issuedBy,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(reportRevisions)
    .innerJoin(samples, eq(samples.id, reportRevisions.sampleId))
    .leftJoin(users, eq(users.id, reportRevisions.issuedBy))
    .where(
      and(
        eq(reportRevisions.state, 'awaiting-review'),
        or(isNull(reportRevisions.issuedBy), ne(reportRevisions.issuedBy, user.id)),
      ),
    )
    .orderBy(reportRevisions.issuedAt, desc(reportRevisions.id))
    .limit(200);
  return rows.map((r) => ({
    sampleId: r.sampleId,
    displayId: displaySampleId(r.sampleId),
    itemName: r.itemName,
    reportCode: r.reportCode,
    revision: r.revision,
    submittedAt: isoDate(r.submittedAt),
    author: r.authorId ? { id: r.authorId, firstName: r.firstName, lastName: r.lastName } : null,
  }));
}

const emptyContent = {
  valuation: null,
  authenticity: null,
  condition: null,
  identification: null,
  summary: null,
  photoIds: [],
} satisfies NonNullable<RevisionRow['content']>;
