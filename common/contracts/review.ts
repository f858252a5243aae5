import { z } from 'zod';
import { reportContent } from './reports';
import { personName } from './samples';

// The second review of a report (docs/product/valuation-report.md, "Second review").

/** A revision is public only once `issued`; the other two states are the lab's own. */
export const REVISION_STATES = ['issued', 'awaiting-review', 'returned'] as const;
export type RevisionState = (typeof REVISION_STATES)[number];

export const MAX_REVIEW_COMMENT = 2000;

export const REVIEW_MESSAGES = {
  commentRequired: 'Please say what needs to change',
  commentTooLong: `The comment can be at most ${MAX_REVIEW_COMMENT} characters`,
  ownRevision: 'You issued this report yourself: a second expert must review it',
  nothingAwaiting: 'No report of this sample is awaiting review',
  alreadyAwaiting:
    'This report is awaiting review: it can be issued again once it has been approved or sent back',
  notAllowed: 'You do not have permission to review reports',
  submitted: 'Report sent for review: it becomes public once a second expert approves it',
  approved: 'Report approved and issued',
  returned: 'Report sent back to its author',
} as const;

/** POST /api/staff/samples/{id}/report/reject: what the author should change. */
export const rejectReportBody = z.object({
  comment: z
    .string({ message: REVIEW_MESSAGES.commentRequired })
    .trim()
    .min(1, REVIEW_MESSAGES.commentRequired)
    .max(MAX_REVIEW_COMMENT, REVIEW_MESSAGES.commentTooLong),
});
export type RejectReportBody = z.infer<typeof rejectReportBody>;

const staffName = personName.extend({ id: z.number() });

const draftElement = z.object({
  element: z.string(),
  percentage: z.number(),
  purity: z.string().nullable(),
  quality: z.string().nullable(),
  notes: z.string().nullable(),
});

/**
 * GET /api/staff/samples/{id}/report/review: the revision waiting for (or sent back by) a reviewer,
 * or null when the sample's latest revision is public. `canReview` says whether the caller may
 * approve or send it back (never its author).
 */
export const reportReview = z.object({
  sampleId: z.number(),
  reportCode: z.string(),
  revision: z.number(),
  state: z.enum(['awaiting-review', 'returned']),
  submittedAt: z.string(),
  author: staffName.nullable(),
  reviewer: staffName.nullable(),
  reviewedAt: z.string().nullable(),
  comment: z.string().nullable(),
  /** What was submitted: the report's statements (amounts in major units) and its element table. */
  content: reportContent.nullable(),
  elements: z.array(draftElement),
  /** The author asked for the sample to be marked Completed when this revision is approved. */
  completeOnApproval: z.boolean(),
  canReview: z.boolean(),
});
export type ReportReview = z.infer<typeof reportReview>;
export const reportReviewResponse = reportReview.nullable();

/** GET /api/staff/reviews: revisions awaiting review that the caller may approve (not their own). */
export const awaitingReviewItem = z.object({
  sampleId: z.number(),
  displayId: z.string(),
  itemName: z.string(),
  reportCode: z.string(),
  revision: z.number(),
  submittedAt: z.string(),
  author: staffName.nullable(),
});
export type AwaitingReviewItem = z.infer<typeof awaitingReviewItem>;
export const awaitingReviewList = z.array(awaitingReviewItem);

/**
 * GET /api/staff/samples/{id}/report/review-history: every approval and send-back on the sample,
 * newest first (staff and admins only: the comments are the lab's own).
 */
export const REVIEW_DECISIONS = ['approved', 'returned'] as const;
export const reviewDecision = z.object({
  id: z.number(),
  reportCode: z.string(),
  revision: z.number(),
  decision: z.enum(REVIEW_DECISIONS),
  reviewer: staffName.nullable(),
  author: staffName.nullable(),
  /** When the author issued what was decided on (null for decisions recorded before this was kept). */
  submittedAt: z.string().nullable(),
  decidedAt: z.string(),
  comment: z.string().nullable(),
});
export type ReviewDecision = z.infer<typeof reviewDecision>;
export const reviewHistory = z.array(reviewDecision);

/** Who signed a reviewed report off, as verification names them. */
export const reviewSignOff = z.object({
  analyzedBy: personName,
  reviewedBy: personName,
  reviewedAt: z.string(),
});
export type ReviewSignOff = z.infer<typeof reviewSignOff>;
