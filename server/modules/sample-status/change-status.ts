import { displaySampleId } from '../../../common/domain/samples';
import { type AuditWho, recordAudit } from '../../audit/audit';
import type { DbOrTx } from '../../db/client';
import type { Mailer } from '../../mail/mailer';
import { mailStatusChanged } from '../../mail/notifications';
import type { SampleRow } from '../../db/samples';
import { emitWebhookEvent } from '../webhooks/webhook-events';
import { setSampleStatus } from './sample-status.queries';

/**
 * A sample's status changes (docs/product/statuses.md), inside the caller's transaction: the new
 * status and its history row, the customer's mail when the status really changes, and the audit
 * event. Used by the status call, and by issuing or approving a report that also completes the sample.
 */
export async function changeSampleStatus(
  tx: DbOrTx,
  mailer: Mailer,
  who: AuditWho & { actor: { id: number } | null },
  sample: SampleRow,
  change: { status: string; comment: string | null },
): Promise<SampleRow> {
  const updated = await setSampleStatus(tx, {
    sampleId: sample.id,
    status: change.status,
    comment: change.comment,
    updatedBy: who.actor?.id ?? sample.assignedStaffId ?? sample.userId,
  });
  // The customer's mail commits (or rolls back) with the status (docs/product/mail.md).
  if (sample.status !== change.status) {
    await mailStatusChanged(tx, mailer, sample, change.status, change.comment);
    await emitWebhookEvent(tx, 'sample.status_changed', sample.userId, {
      sampleId: sample.id,
      displayId: displaySampleId(sample.id),
      itemName: sample.itemName,
      previousStatus: sample.status,
      status: change.status,
    });
  }
  // Every call writes a history row, so every call is recorded (a comment alone too).
  await recordAudit(tx, {
    ...who,
    action: 'sample.status_changed',
    subject: { type: 'sample', id: sample.id },
    before: { status: sample.status },
    after: { status: change.status, comment: change.comment },
  });
  return updated;
}
