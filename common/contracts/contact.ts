import { z } from 'zod';
import { contactInquiry } from './inquiries';
import {
  CONTACT_EMAIL_MAX,
  CONTACT_HONEYPOT_FIELD,
  CONTACT_MESSAGE_MAX,
  CONTACT_NAME_MAX,
  CONTACT_PHONE_MAX,
  CONTACT_SUBJECT_LABELS,
  CONTACT_SUBJECTS,
  type ContactSubject,
} from './contact-constants';

// The contact form (docs/product/api.md, limits.md); its fields and bounds are in ./contact-constants.

export {
  CONTACT_EMAIL_MAX,
  CONTACT_HONEYPOT_FIELD,
  CONTACT_MESSAGE_MAX,
  CONTACT_NAME_MAX,
  CONTACT_PHONE_MAX,
  CONTACT_SUBJECT_LABELS,
  CONTACT_SUBJECTS,
  type ContactSubject,
};

/** The label of a stored subject; a value outside the list is shown as it is. */
export function contactSubjectLabel(subject: string): string {
  return Object.hasOwn(CONTACT_SUBJECT_LABELS, subject)
    ? CONTACT_SUBJECT_LABELS[subject as ContactSubject]
    : subject;
}

export const CONTACT_MESSAGES = {
  firstName: 'First name is required',
  lastName: 'Last name is required',
  email: 'Invalid email address',
  subject: 'Please select a subject',
  message: 'Message is required',
  messageTooLong: `Message must be at most ${CONTACT_MESSAGE_MAX} characters`,
  nameTooLong: `Must be at most ${CONTACT_NAME_MAX} characters`,
} as const;

const name = (required: string) =>
  z.string().trim().min(1, required).max(CONTACT_NAME_MAX, CONTACT_MESSAGES.nameTooLong);

/** What the form validates and the server accepts. */
export const contactRequest = z.object({
  firstName: name(CONTACT_MESSAGES.firstName),
  lastName: name(CONTACT_MESSAGES.lastName),
  email: z
    .string()
    .trim()
    .pipe(z.email(CONTACT_MESSAGES.email).max(CONTACT_EMAIL_MAX, CONTACT_MESSAGES.email)),
  phone: z
    .string()
    .trim()
    .max(CONTACT_PHONE_MAX, `Phone must be at most ${CONTACT_PHONE_MAX} characters`)
    .nullish()
    .transform((v) => (v ? v : null)),
  subject: z.enum(CONTACT_SUBJECTS, CONTACT_MESSAGES.subject),
  message: z
    .string()
    .trim()
    .min(1, CONTACT_MESSAGES.message)
    .max(CONTACT_MESSAGE_MAX, CONTACT_MESSAGES.messageTooLong),
  [CONTACT_HONEYPOT_FIELD]: z.string().max(255).optional(),
});
export type ContactRequest = z.input<typeof contactRequest>;

/** 201: the stored inquiry, as the admin sees it but without updatedAt. */
export const contactResponse = contactInquiry.omit({ updatedAt: true });
export type ContactResponse = z.infer<typeof contactResponse>;

/** Requests per address per window (docs/product/limits.md). */
export const CONTACT_RATE_LIMIT = { max: 5, timeWindowMs: 10 * 60 * 1000 } as const;
