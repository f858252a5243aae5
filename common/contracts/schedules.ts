import { z } from 'zod';

// Schedules of collections (docs/product/schedules.md): a signed PDF listing a collection's items
// with the values of their issued reports and the totals; its own code verifies publicly without
// any value.

export const SCHEDULE_MESSAGES = {
  notFound: 'Schedule not found',
  noneIssued: 'No schedule has been issued for this collection',
  empty: 'This collection has no items yet: a schedule lists at least one',
  notReady: (displayIds: string[], more: number) =>
    `A schedule needs an issued report for every item of the collection. Still without one: ${displayIds.join(', ')}${more > 0 ? ` and ${more} more` : ''}`,
  changed: 'The collection changed while its schedule was being prepared; please try again',
} as const;

/** POST /api/staff/collections/{id}/schedule */
export const scheduleIssued = z.object({
  scheduleCode: z.string(),
  issuedAt: z.string(),
  itemCount: z.number().int(),
});
export type ScheduleIssued = z.infer<typeof scheduleIssued>;

/** GET /api/collections/{id}/schedule: the collection's latest schedule. */
export const scheduleSummary = scheduleIssued.extend({
  collectionId: z.number().int(),
  pdfUrl: z.string(),
  verifyUrl: z.string(),
});
export type ScheduleSummary = z.infer<typeof scheduleSummary>;

/** One item of a schedule as public verification shows it: never a value. */
export const verifiedScheduleItem = z.object({
  displayId: z.string(),
  itemName: z.string(),
  category: z.string(),
  reportCode: z.string(),
  reportRevision: z.number().int(),
  /** The item's report now: still issued, or withdrawn after the schedule was issued. */
  reportStatus: z.enum(['issued', 'revoked']),
});

/** GET /api/schedules/verify/{code} (public) */
export const scheduleVerification = z.object({
  scheduleCode: z.string(),
  issuedAt: z.string(),
  labName: z.string(),
  itemCount: z.number().int(),
  items: z.array(verifiedScheduleItem),
  /** A newer schedule of the same collection replaces this one. */
  superseded: z.object({ scheduleCode: z.string(), issuedAt: z.string() }).nullable(),
  pdfSha256: z.string(),
});
export type ScheduleVerification = z.infer<typeof scheduleVerification>;

/** The public page that verifies a schedule (its QR code points here, after PUBLIC_URL). */
export const scheduleVerifyPath = (code: string) => `/verify-schedule?code=${code}`;
