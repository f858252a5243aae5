import type { z } from 'zod';
import {
  CONTACT_HONEYPOT_FIELD,
  CONTACT_SUBJECT_LABELS,
  type contactRequest,
} from '../../../common/contracts/contact';
import type { Db } from '../../db/client';
import type { Mailer } from '../../mail/mailer';
import { badRequest } from '../../plugins/errors';
import { insertContactInquiry } from './contact.queries';

export const HONEYPOT_REFUSAL = 'Message rejected';

const subjectLabel = (s: string) => (CONTACT_SUBJECT_LABELS as Record<string, string | undefined>)[s] ?? s;

/**
 * A message from the public contact form (docs/product/api.md): stored as a new inquiry, and the
 * sender's acknowledgement queued in the same transaction (docs/product/mail.md). A filled honeypot
 * means a bot: refused, and nothing is stored.
 */
export async function receiveContactMessage(
  deps: { db: Db; mailer: Mailer },
  body: z.output<typeof contactRequest>,
) {
  if (body[CONTACT_HONEYPOT_FIELD]) throw badRequest(HONEYPOT_REFUSAL);
  return deps.db.transaction(async (tx) => {
    const stored = await insertContactInquiry(tx, {
      firstName: body.firstName,
      lastName: body.lastName,
      email: body.email,
      phone: body.phone,
      subject: body.subject,
      message: body.message,
      status: 'new',
    });
    await deps.mailer.queue(tx, stored.email, 'contactAck', { subject: subjectLabel(stored.subject) });
    return stored;
  });
}
