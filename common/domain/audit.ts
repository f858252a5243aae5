// The lab's audit trail (docs/product/audit-trail.md): what kinds of events it keeps and what they are
// about. A module that records a new kind of change adds its action here (`area.past_tense`), so the
// admin view's filter and the API's schema know it.

export const AUDIT_ACTIONS = [
  // Accounts and sign-in
  'auth.signed_in',
  'auth.sign_in_failed',
  'auth.password_changed',
  'auth.password_reset',
  'user.role_changed',
  'user.active_changed',
  'user.two_factor_enabled',
  'user.two_factor_disabled',
  'user.two_factor_reset',
  'user.recovery_codes_renewed',
  // The lab
  'lab.settings_changed',
  // Samples and their workflow
  'sample.assigned',
  'sample.status_changed',
  // Reports
  'report.issued',
  'report.submitted_for_review',
  'report.approved',
  'report.rejected',
  'report.revoked',
  'share_link.created',
  'share_link.revoked',
  // Quotes and payment
  'quote.sent',
  'quote.withdrawn',
  'quote.accepted',
  'quote.declined',
  'quote.paid',
  // Contact inquiries
  'inquiry.replied',
  'inquiry.status_changed',
  // Custody of the physical item
  'custody.received',
  'custody.moved',
  'custody.to_expert',
  'custody.to_storage',
  'custody.returned',
  'custody.collected',
  'location.created',
  'location.updated',
  // Integrations
  'api_key.created',
  'api_key.revoked',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  // Collections and bulk intake
  'collection.created',
  'collection.samples_added',
  'sample.imported',
  // Schedules of collections
  'schedule.issued',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** What an event is about: the kind of record, with its id (or none, e.g. a sign-in to no account). */
export const AUDIT_SUBJECT_TYPES = [
  'user',
  'sample',
  'report',
  'share_link',
  'quote',
  'lab_settings',
  'inquiry',
  'location',
  'api_key',
  'webhook',
  'collection',
] as const;
export type AuditSubjectType = (typeof AUDIT_SUBJECT_TYPES)[number];

/** The actor label of an event no person caused (start-up, background jobs). */
export const AUDIT_SYSTEM_ACTOR = 'system';
