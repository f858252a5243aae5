// Who a report names as "Analyzed By" and "Reviewed By" (docs/product/reports-and-verification.md):
// the one home of the rule, used by issuing, approval, the draft PDF and the report's credential.

export type PersonNameParts = { firstName: string | null; lastName: string | null };

/** A person's first and last name as a report prints them ('' when neither is known). */
export const personName = (p: PersonNameParts | undefined) =>
  p ? [p.firstName, p.lastName].filter(Boolean).join(' ').trim() : '';

/** Who signs the report: the analyst (by id, with a fallback name) and, once approved, the reviewer. */
export type Signatories = {
  analyst: { id: number; fallbackName: string };
  reviewer?: { id: number; reviewedAt: Date } | 'pending';
};

const NO_ANALYST_NAME = 'Laboratory analyst';

/**
 * Issuing: with second review on, the author is the analyst and the reviewer is still pending;
 * otherwise, as always, the staff member the sample is assigned to (else the author).
 */
export function signatoriesOfIssue(
  author: PersonNameParts & { id: number; email: string },
  sample: { assignedStaffId: number | null },
  review: boolean,
): Signatories {
  const analyst = { id: author.id, fallbackName: personName(author) || author.email };
  return review
    ? { analyst, reviewer: 'pending' }
    : { analyst: { ...analyst, id: sample.assignedStaffId ?? author.id } };
}

/** Approval: the revision's author (else the approver) beside the approver as reviewer. */
export const signatoriesOfApproval = (
  author: number | null,
  approver: number,
  reviewedAt: Date,
): Signatories => ({
  analyst: { id: author ?? approver, fallbackName: NO_ANALYST_NAME },
  reviewer: { id: approver, reviewedAt },
});

/** A draft awaiting review, drawn for the lab: its author, the reviewer still pending. */
export const signatoriesOfDraft = (author: number | null, reader: number): Signatories => ({
  analyst: { id: author ?? reader, fallbackName: NO_ANALYST_NAME },
  reviewer: 'pending',
});

/**
 * A published revision's names as its PDF prints them, for its credential: the analyst the revision
 * kept when it was issued (`analyst`), and the approver of a reviewed one. A revision issued before the
 * analyst was kept: a reviewed one names its author; otherwise the sample's analyst, else whoever
 * issued it.
 */
export function namesOfRevision(
  signOff:
    | {
        reviewed: boolean;
        analyst: PersonNameParts | null;
        author: PersonNameParts | null;
        reviewer: PersonNameParts | null;
      }
    | undefined,
  sampleAnalyst: PersonNameParts,
): { analyzedBy: string; reviewedBy: string | null } {
  const kept = personName(signOff?.analyst ?? undefined);
  return {
    analyzedBy: kept
      ? kept
      : signOff?.reviewed
        ? personName(signOff.author ?? undefined)
        : personName(sampleAnalyst) || personName(signOff?.author ?? undefined),
    reviewedBy: signOff?.reviewed ? personName(signOff.reviewer ?? undefined) : null,
  };
}
