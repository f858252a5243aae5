import { CONTACT_SUBJECT_LABELS } from '../../../common/contracts/contact';
import { type AuditWho, recordAudit } from '../../audit/audit';
import type { Db } from '../../db/client';
import type { Mailer } from '../../mail/mailer';
import { notFound } from '../../plugins/errors';
import {
  findInquiryForUpdate,
  type InquiryRow,
  saveInquiryReply,
  setInquiryStatus,
} from './inquiries.queries';

const INQUIRY_NOT_FOUND = 'Inquiry not found';

/** An admin sets an inquiry's status; a real change is audited in the same transaction. 404 if unknown. */
export async function changeInquiryStatus(
  db: Db,
  who: AuditWho,
  id: number,
  status: string,
): Promise<InquiryRow> {
  const row = await db.transaction(async (tx) => {
    const before = await findInquiryForUpdate(tx, id);
    if (!before) return undefined;
    const updated = await setInquiryStatus(tx, id, status);
    if (updated && before.status !== updated.status)
      await recordAudit(tx, {
        ...who,
        action: 'inquiry.status_changed',
        subject: { type: 'inquiry', id: updated.id },
        before: { status: before.status },
        after: { status: updated.status },
      });
    return updated;
  });
  if (!row) throw notFound(INQUIRY_NOT_FOUND);
  return row;
}

/**
 * An admin replies to an inquiry (docs/product/mail.md): the reply is stored, the inquiry responded,
 * the sender mailed and the reply audited, in one transaction. 404 for an unknown inquiry.
 */
export async function replyToInquiry(
  deps: { db: Db; mailer: Mailer },
  who: AuditWho,
  admin: { id: number },
  id: number,
  message: string,
): Promise<InquiryRow> {
  const row = await deps.db.transaction(async (tx) => {
    const before = await findInquiryForUpdate(tx, id);
    const updated = await saveInquiryReply(tx, id, { message, by: admin.id });
    if (!updated) return undefined;
    await deps.mailer.queue(tx, updated.email, 'inquiryReply', {
      firstName: updated.firstName,
      subject:
        (CONTACT_SUBJECT_LABELS as Record<string, string | undefined>)[updated.subject] ?? updated.subject,
      reply: message,
      message: updated.message,
    });
    await recordAudit(tx, {
      ...who,
      action: 'inquiry.replied',
      subject: { type: 'inquiry', id: updated.id },
      before: { status: before?.status ?? null, replyMessage: before?.replyMessage ?? null },
      after: { status: updated.status, replyMessage: updated.replyMessage, to: updated.email },
    });
    return updated;
  });
  if (!row) throw notFound(INQUIRY_NOT_FOUND);
  return row;
}
