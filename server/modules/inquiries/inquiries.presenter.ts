import type { ContactInquiry } from '../../../common/contracts/inquiries';
import { isoDate } from '../../time';
import type { InquiryRow } from './inquiries.queries';

/**
 * The one presenter of a contact inquiry: the admin's list and status change answer all of it;
 * the public contact form's answer (contactResponse) is the same without updatedAt.
 */
export function presentInquiry(row: InquiryRow): ContactInquiry {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    phone: row.phone,
    subject: row.subject,
    message: row.message,
    status: row.status,
    replyMessage: row.replyMessage,
    repliedAt: row.repliedAt ? isoDate(row.repliedAt) : null,
    createdAt: isoDate(row.createdAt),
    updatedAt: isoDate(row.updatedAt),
  };
}
