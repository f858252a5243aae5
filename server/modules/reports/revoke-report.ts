import type { RevokeReportResponse } from '../../../common/contracts/reports';
import { normalizeReportCode } from '../../../common/domain/reports';
import { displaySampleId } from '../../../common/domain/samples';
import { type AuditWho, recordAudit } from '../../audit/audit';
import type { Db } from '../../db/client';
import type { Mailer } from '../../mail/mailer';
import { mailReportWithdrawn } from '../../mail/notifications';
import { conflict, notFound } from '../../plugins/errors';
import { isoDate } from '../../time';
import { emitWebhookEvent } from '../webhooks/webhook-events';
import { findSampleByReportCode, markReportRevoked } from './reports.queries';

export const REPORT_NOT_FOUND = 'Report not found';
const ALREADY_REVOKED = 'This report has already been revoked';

/**
 * An admin withdraws an issued report, with a reason (docs/product/reports-and-verification.md): 404
 * for an unknown code, 409 when it is already withdrawn. The mark, the customer's mail, the webhook
 * and the audit event commit together; verification then answers the report as revoked.
 */
export async function revokeReport(
  deps: { db: Db; mailer: Mailer },
  user: { id: number },
  who: AuditWho,
  rawCode: string,
  reason: string,
): Promise<RevokeReportResponse> {
  const code = normalizeReportCode(rawCode);
  const sample = await findSampleByReportCode(deps.db, code);
  if (!sample) throw notFound(REPORT_NOT_FOUND);
  if (sample.reportRevokedAt) throw conflict(ALREADY_REVOKED);
  const revoked = await deps.db.transaction(async (tx) => {
    const row = await markReportRevoked(tx, sample.id, { reason, at: new Date(), by: user.id });
    if (row?.reportRevokedAt) {
      await mailReportWithdrawn(tx, deps.mailer, sample, code, reason);
      await emitWebhookEvent(tx, 'report.revoked', sample.userId, {
        sampleId: sample.id,
        displayId: displaySampleId(sample.id),
        reportCode: code,
        reason,
        revokedAt: isoDate(row.reportRevokedAt),
      });
      await recordAudit(tx, {
        ...who,
        action: 'report.revoked',
        subject: { type: 'sample', id: sample.id },
        before: { reportCode: code, revoked: false },
        after: { reportCode: code, revoked: true, reason },
      });
    }
    return row;
  });
  if (!revoked?.reportRevokedAt) throw conflict(ALREADY_REVOKED);
  return {
    reportCode: code,
    revoked: true as const,
    revokedReason: revoked.reportRevokedReason ?? reason,
    revokedAt: isoDate(revoked.reportRevokedAt),
  };
}
