import type { VerificationResponse } from '../../../common/contracts/verification';
import { isoDate as iso, isoDateOrNull } from '../../plugins/presented-json';
import type { VerifiedRow } from './verification.queries';

/** The public face of an issued report: the verification fields of docs/product/reports-and-verification.md, with revision and revocation. */
export function presentVerification(
  row: VerifiedRow & { current: NonNullable<VerifiedRow['current']> },
): VerificationResponse {
  const hasStaff = row.staffFirstName !== null || row.staffLastName !== null;
  return {
    id: row.id,
    itemName: row.itemName,
    category: row.category,
    status: row.status,
    reportCode: row.reportCode ?? '',
    submissionDate: iso(row.submissionDate),
    reportGeneratedAt: isoDateOrNull(row.reportGeneratedAt),
    lastUpdated: iso(row.lastUpdated),
    reportElements: (row.elements ?? []).map((e) => ({
      element: e.element,
      percentage: e.percentage === null ? null : Number(e.percentage),
      purity: e.purity,
      quality: e.quality,
    })),
    assignedStaff: hasStaff ? { firstName: row.staffFirstName, lastName: row.staffLastName } : null,
    revision: row.current.revision,
    issuedAt: iso(row.current.issuedAt),
    revoked: row.reportRevokedAt !== null,
    revokedReason: row.reportRevokedReason,
    revokedAt: isoDateOrNull(row.reportRevokedAt),
  };
}
