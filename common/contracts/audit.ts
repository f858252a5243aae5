import { z } from 'zod';
import { AUDIT_ACTIONS, AUDIT_SUBJECT_TYPES } from '../domain/audit';

// The admin's view of the audit trail (docs/product/audit-trail.md): GET /api/admin/audit (one page,
// newest first, total in X-Total-Count), GET /api/admin/audit.csv (the same filters, every matching
// event) and GET /api/admin/audit/verify.

export const AUDIT_PAGE_SIZE = 50;
export const MAX_AUDIT_PAGE_SIZE = 200;
/**
 * How deep a filtered list may page (rows skipped). Beyond it: narrow the filters or export the CSV,
 * which streams every matching event. The unfiltered list pages to any depth at no cost.
 */
export const MAX_AUDIT_FILTERED_OFFSET = 10_000;
export const AUDIT_TOO_DEEP_MESSAGE = `Only the first ${MAX_AUDIT_FILTERED_OFFSET.toLocaleString('en')} matching events can be paged; narrow the filters or export the CSV`;
export const AUDIT_DATE_MESSAGE = 'Use a date (YYYY-MM-DD) or a date and time (ISO 8601)';

/** An empty query parameter (a cleared filter in the URL) counts as not given. */
const blankAsMissing = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankAsMissing, schema.optional());

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const dateParam = z
  .string()
  .trim()
  .refine((v) => (DATE_ONLY.test(v) || v.includes('T')) && !Number.isNaN(Date.parse(v)), AUDIT_DATE_MESSAGE);

export const auditQuery = z.object({
  action: optional(z.enum(AUDIT_ACTIONS, { message: 'Unknown action' })),
  subjectType: optional(z.enum(AUDIT_SUBJECT_TYPES, { message: 'Unknown subject type' })),
  subjectId: optional(z.string().trim().max(64)),
  /** An account id, `system`, or the e-mail the event names as its actor. */
  actor: optional(z.string().trim().max(255)),
  /** From this instant, or from the start of this day (UTC). */
  from: optional(dateParam),
  /** Up to this instant, or to the end of this day (UTC). */
  to: optional(dateParam),
  page: z.coerce.number().int().min(1).max(1_000_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_AUDIT_PAGE_SIZE).default(AUDIT_PAGE_SIZE),
});
export type AuditQuery = z.infer<typeof auditQuery>;
export type AuditQueryInput = z.input<typeof auditQuery>;
/** The filters alone (the CSV export takes these). */
export const auditFilters = auditQuery.omit({ page: true, pageSize: true });
export type AuditFilters = z.infer<typeof auditFilters>;

export const auditEvent = z.object({
  id: z.number(),
  at: z.string(),
  actorId: z.number().nullable(),
  /** The account's e-mail as it was, the address typed at a failed sign-in, or `system`. */
  actorLabel: z.string(),
  action: z.string(),
  subjectType: z.string(),
  subjectId: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  network: z.string().nullable(),
  prevHash: z.string(),
  hash: z.string(),
});
export type AuditEvent = z.infer<typeof auditEvent>;
export const auditEventList = z.array(auditEvent);

export const auditVerification = z.object({
  valid: z.boolean(),
  events: z.number(),
  firstBrokenId: z.number().optional(),
  problem: z.string().optional(),
  headHash: z.string(),
});
export type AuditVerification = z.infer<typeof auditVerification>;
