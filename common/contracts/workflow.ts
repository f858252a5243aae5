import { z } from 'zod';
import { SAMPLE_STATUSES } from '../domain/samples';
import { listThumbnail, personName, sampleListItem, sampleSchema } from './samples';

// Staff and admin sample workflow (docs/product/screens.md, statuses.md, api.md).

/** Admin list page size (docs/product/limits.md); the server accepts up to MAX_ADMIN_PAGE_SIZE. */
export const ADMIN_PAGE_SIZE = 10;
export const MAX_ADMIN_PAGE_SIZE = 100;
export const TOTAL_COUNT_HEADER = 'X-Total-Count';
/** The work list (GET /api/staff/samples) answers at most this many rows, newest first (docs/product/limits.md). */
export const WORK_LIST_PAGE_SIZE = 500;
export const workListQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000_000).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .min(1)
    .max(WORK_LIST_PAGE_SIZE, { message: `pageSize must be at most ${WORK_LIST_PAGE_SIZE}` })
    .default(WORK_LIST_PAGE_SIZE),
});
/** Comment written with the status change of 'Start Analysis' (docs/product/statuses.md). */
export const START_ANALYSIS_COMMENT = 'Started by staff';
export const MAX_STATUS_COMMENT = 1000;

export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_ADMIN_PAGE_SIZE).default(ADMIN_PAGE_SIZE),
});
export type PageQuery = z.infer<typeof pageQuery>;

export const sampleIdParams = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });

/** POST /api/staff/samples/{id}/status: `{status, comment}` (the staff screen leaves comment empty). */
export const statusUpdateRequest = z.object({
  status: z.enum(SAMPLE_STATUSES, { message: 'Invalid status' }),
  comment: z
    .string()
    .max(MAX_STATUS_COMMENT)
    .nullish()
    .transform((v) => (v?.trim() ? v.trim() : null)),
});
export type StatusUpdateRequest = z.input<typeof statusUpdateRequest>;

export const ASSIGN_REQUIRED_MESSAGE = 'Please select a staff member';
export const ASSIGNEE_ROLE_MESSAGE = 'Samples can only be assigned to staff or admin users';

/** POST /api/admin/samples/{id}/assign: `{staffId}` (docs/product/api.md). */
export const assignRequest = z.object({
  staffId: z.coerce
    .number({ message: ASSIGN_REQUIRED_MESSAGE })
    .int(ASSIGN_REQUIRED_MESSAGE)
    .min(1, ASSIGN_REQUIRED_MESSAGE)
    .max(2_147_483_647, ASSIGN_REQUIRED_MESSAGE),
});
export type AssignRequest = z.input<typeof assignRequest>;

export const sampleList = z.array(sampleListItem);

/**
 * GET /api/staff/samples: the lab's work list. One row per sample with what the staff table, its
 * counters and its actions use (docs/decisions/0005): the full record stays behind
 * GET /api/samples/{id}, so a staff member's 500 samples cost ~120 KB instead of ~550 KB.
 */
export const workListItem = sampleSchema
  .pick({
    id: true,
    userId: true,
    itemName: true,
    category: true,
    status: true,
    urgencyLevel: true,
    submitterName: true,
    isRepresentative: true,
    representativeName: true,
    clientName: true,
    submissionDate: true,
    lastUpdated: true,
    assignedStaffId: true,
    reportGenerated: true,
    reportCode: true,
    reportRevokedAt: true,
    expectedCompletionDate: true,
    overdue: true,
    quoteStatus: true,
    custody: true,
  })
  .extend({ user: personName.nullable(), assignedStaff: personName.nullable() })
  .extend(listThumbnail.shape);
export type WorkListItem = z.infer<typeof workListItem>;
export const workList = z.array(workListItem);

/** GET /api/admin/analytics: the dashboard's counters and its two charts, from one call. */
export const ANALYTICS_WEEKS = 12;
export const adminAnalytics = z.object({
  totalSamples: z.number(),
  activeSamples: z.number(),
  completedSamples: z.number(),
  /** Samples past their expected completion date and not completed (docs/product/quotes.md). */
  overdueSamples: z.number(),
  byStatus: z.array(z.object({ status: z.enum(SAMPLE_STATUSES), count: z.number() })),
  /** Oldest first; `weekStart` is the Monday (UTC) of each of the last 12 weeks, as YYYY-MM-DD. */
  weekly: z.array(z.object({ weekStart: z.string(), count: z.number() })),
});
export type AdminAnalytics = z.infer<typeof adminAnalytics>;
