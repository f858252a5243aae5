import type { VerificationResponse } from '../../../common/contracts/verification';
import { isoDate as iso } from '../../time';
import { valueInMajorUnits } from '../reports/report-content';
import type { IssuedRow, VerifiedRow } from './verification.queries';

/** The public face of an issued report: the verification fields of docs/product/reports-and-verification.md, with revision and revocation. */
export function presentVerification(
  row: IssuedRow,
  opts: { photoUrl: (reportCode: string, fileId: number) => string; showValue: boolean },
): VerificationResponse {
  // The stored content is read field by field: the public answer takes only what it shows, and the
  // amounts (minor units at rest) are converted only when a share link shows them.
  const content = row.current.content;
  const v = opts.showValue ? content?.valuation : null;
  const hasStaff = row.staffFirstName !== null || row.staffLastName !== null;
  const reportCode = row.reportCode ?? '';
  return {
    id: row.id,
    itemName: row.itemName,
    category: row.category,
    status: row.status,
    reportCode,
    // The row's own timestamps come decoded as the answer carries them (prepareVerificationLookup).
    submissionDate: row.submissionDate,
    reportGeneratedAt: row.reportGeneratedAt,
    lastUpdated: row.lastUpdated,
    reportElements: (row.elements ?? []).map((e) => ({
      element: e.element,
      percentage: e.percentage === null ? null : Number(e.percentage),
      purity: e.purity,
      quality: e.quality,
    })),
    assignedStaff: hasStaff ? { firstName: row.staffFirstName, lastName: row.staffLastName } : null,
    revision: row.current.revision,
    review: presentSignOff(row.current.review),
    issuedAt: iso(row.current.issuedAt),
    revoked: row.reportRevokedAt !== null,
    revokedReason: row.reportRevokedReason,
    revokedAt: row.reportRevokedAt,
    identification: content?.identification ?? null,
    authenticity: content?.authenticity ? { verdict: content.authenticity.verdict } : null,
    condition: content?.condition ? { grade: content.condition.grade } : null,
    assignment: content?.assignment
      ? { intendedUse: content.assignment.intendedUse, inspection: content.assignment.inspection }
      : null,
    photos: (content?.photoIds ?? []).map((id) => ({ url: opts.photoUrl(reportCode, id) })),
    valuation: v
      ? {
          ...valueInMajorUnits(v),
          currency: v.currency,
          valueType: v.valueType,
          effectiveDate: v.effectiveDate,
        }
      : null,
  };
}

const noName = { firstName: null, lastName: null };

/** "Analyzed By" and "Reviewed By" of a reviewed revision, as its PDF names them. */
function presentSignOff(review: NonNullable<VerifiedRow['current']>['review']) {
  if (!review) return null;
  return {
    analyzedBy: review.analyzedBy ?? noName,
    reviewedBy: review.reviewedBy ?? noName,
    reviewedAt: iso(review.reviewedAt),
  };
}
