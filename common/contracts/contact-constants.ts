// The contact form's fields, without zod (docs/product/api.md, limits.md): the public contact page
// imports them at once and loads the form's schema (./contact) only when it checks a field
// (scripts/check-web-size.mjs). The bounds are ours; docs/decisions/0007-public-pages-and-contact.md
// explains them.

export const CONTACT_NAME_MAX = 100;
export const CONTACT_EMAIL_MAX = 255;
export const CONTACT_PHONE_MAX = 50;
export const CONTACT_MESSAGE_MAX = 5000;

export const CONTACT_SUBJECTS = [
  'general-inquiry',
  'valuation-quote',
  'consultation-request',
  'existing-submission',
  'other',
] as const;
export type ContactSubject = (typeof CONTACT_SUBJECTS)[number];

export const CONTACT_SUBJECT_LABELS: Record<ContactSubject, string> = {
  'general-inquiry': 'General Inquiry',
  'valuation-quote': 'Valuation Quote',
  'consultation-request': 'Consultation Request',
  'existing-submission': 'Existing Submission',
  other: 'Other',
};

/** The hidden field people never see and bots fill in. */
export const CONTACT_HONEYPOT_FIELD = 'website';
