import type { MailState, OutboxItem } from '../../../common/contracts/mail';
import type { OutboxRow } from '../../mail/mailer';
import { isoDate, isoDateOrNull } from '../../time';

/** A mail of the admin Outbox: who, what, where it stands (never its body: see the detail call). */
export const presentOutboxItem = (r: OutboxRow): OutboxItem => ({
  id: r.id,
  kind: r.kind,
  toAddress: r.toAddress,
  subject: r.subject,
  state: r.state as MailState,
  attempts: r.attempts,
  lastError: r.lastError,
  createdAt: isoDate(r.createdAt),
  sentAt: isoDateOrNull(r.sentAt),
});
