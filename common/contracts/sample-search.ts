import { CUSTODY_STATES, type CustodyState } from '../domain/custody';
import { z } from 'zod';
import { SAMPLE_STATUSES } from '../domain/samples';

// Finding samples in the lab's lists (docs/product/api.md "Search, filters and sorting",
// docs/decisions/0025-search.md): the query of GET /api/admin/samples, GET /api/staff/samples and
// their CSV export, shared by the server and the web app's URL.

export const SAMPLE_SORTS = [
  'submitted',
  '-submitted',
  'expected',
  '-expected',
  'lastUpdated',
  '-lastUpdated',
] as const;
export type SampleSort = (typeof SAMPLE_SORTS)[number];

export const SAMPLE_SORT_LABELS: Record<SampleSort, string> = {
  '-submitted': 'Submitted, newest first',
  submitted: 'Submitted, oldest first',
  expected: 'Expected, soonest first',
  '-expected': 'Expected, latest first',
  '-lastUpdated': 'Last updated, newest first',
  lastUpdated: 'Last updated, oldest first',
};

/** Where an item is (docs/product/custody.md): the `custody` filter's values. */
export { CUSTODY_STATES, type CustodyState };

export const MAX_SEARCH_LENGTH = 200;
/** A filtered or sorted list pages through its first 10,000 rows only (never a deep OFFSET). */
export const MAX_PAGED_ROWS = 10_000;
/** Set to "true" when X-Total-Count is the planner's estimate of a set larger than MAX_PAGED_ROWS. */
export const TOTAL_ESTIMATED_HEADER = 'X-Total-Count-Estimated';

export const SEARCH_TOO_LONG_MESSAGE = `Search text must be at most ${MAX_SEARCH_LENGTH} characters`;
export const DATE_MESSAGE = 'Use a date as YYYY-MM-DD';
export const DATE_RANGE_MESSAGE = 'The start date must not be after the end date';
export const DEEP_PAGE_MESSAGE = `Only the first ${MAX_PAGED_ROWS.toLocaleString('en-US')} matches can be paged: narrow the search`;

/** A repeatable parameter (`status=a&status=b`) or a comma-separated one (`status=a,b`). */
const repeatable = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => {
    if (v === undefined || v === '') return undefined;
    const list = Array.isArray(v) ? v : [v];
    return list.flatMap((x) => (typeof x === 'string' ? x.split(',') : [x])).filter((x) => x !== '');
  }, z.array(item).max(20).optional());

const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, DATE_MESSAGE)
  .refine((v) => {
    const d = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
  }, DATE_MESSAGE);

/** The filters and sort every sample list and export accepts. */
export const sampleFilters = z.object({
  /** A VAL id (with or without "VAL-"), a report code, words of the item, the client's name or e-mail. */
  q: z
    .string()
    .max(MAX_SEARCH_LENGTH, SEARCH_TOO_LONG_MESSAGE)
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : undefined)),
  status: repeatable(z.enum(SAMPLE_STATUSES, { message: 'Invalid status' })),
  /** A staff member's account id, or `none` for samples nobody is assigned to. */
  assignedStaffId: z
    .union([z.literal('none'), z.coerce.number().int().min(1).max(2_147_483_647)], {
      message: 'assignedStaffId must be an account id or none',
    })
    .optional(),
  custody: repeatable(z.enum(CUSTODY_STATES, { message: 'Invalid custody state' })),
  /** `true`: past the expected completion day and not completed; `false`: the others. */
  overdue: z
    .enum(['true', 'false'], { message: 'overdue must be true or false' })
    .optional()
    .transform((v) => (v === undefined ? undefined : v === 'true')),
  /** Submitted on or after this day (UTC). */
  from: isoDay.optional(),
  /** Submitted on or before this day (UTC). */
  to: isoDay.optional(),
  sort: z.enum(SAMPLE_SORTS, { message: `sort must be one of ${SAMPLE_SORTS.join(', ')}` }).optional(),
});
/** Every filter is optional (the schema's output lists them all, some as undefined). */
export type SampleFilters = {
  [K in keyof z.output<typeof sampleFilters>]?: z.output<typeof sampleFilters>[K];
};
export type SampleFiltersInput = z.input<typeof sampleFilters>;

const page = z.coerce.number().int().min(1).max(1_000_000_000).default(1);

const checkRange = (v: { from?: string; to?: string }, ctx: z.RefinementCtx) => {
  if (v.from && v.to && v.from > v.to)
    ctx.addIssue({ code: 'custom', path: ['from'], message: DATE_RANGE_MESSAGE });
};

/** GET /api/admin/samples: filters, sort and a page of at most `max` rows. */
export const sampleListQuery = (defaultSize: number, max: number) =>
  sampleFilters
    .extend({
      page,
      pageSize: z.coerce
        .number()
        .int()
        .min(1)
        .max(max, { message: `pageSize must be at most ${max}` })
        .default(defaultSize),
    })
    .superRefine(checkRange);

/** The CSV exports take the filters alone: they answer every row the filters select. */
export const sampleExportQuery = sampleFilters.superRefine(checkRange);

/** GET /api/staff/samples/counts: the caller's work list by status, counted by the server. */
export const workListCounts = z.object({
  total: z.number(),
  byStatus: z.array(z.object({ status: z.enum(SAMPLE_STATUSES), count: z.number() })),
  overdue: z.number(),
});
export type WorkListCounts = z.infer<typeof workListCounts>;

/** The query string of a list or export, from filters (the web app's URL and its fetches use it). */
export function sampleFiltersToParams(f: Partial<SampleFilters>): URLSearchParams {
  const p = new URLSearchParams();
  if (f.q) p.set('q', f.q);
  for (const s of f.status ?? []) p.append('status', s);
  if (f.assignedStaffId !== undefined) p.set('assignedStaffId', String(f.assignedStaffId));
  for (const c of f.custody ?? []) p.append('custody', c);
  if (f.overdue !== undefined) p.set('overdue', String(f.overdue));
  if (f.from) p.set('from', f.from);
  if (f.to) p.set('to', f.to);
  if (f.sort) p.set('sort', f.sort);
  return p;
}
