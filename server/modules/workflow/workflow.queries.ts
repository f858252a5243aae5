import { and, count, desc, eq, inArray, lt, ne, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, DbOrTx } from '../../db/client';
import { preparedStatements } from '../../db/prepared';
import { columnIndexes, type TextRow } from '../../db/text-rows';
import { samples, users } from '../../db/schema';
import type { SampleRow } from '../../db/samples';

export { findSample, findSampleForUpdate } from '../../db/samples';
import { firstPhotoColumn, type FirstPhoto } from '../samples/samples.queries';

export const SAMPLE_ID_BUCKET = 1000;

/** Raw SQL answers: both drivers (pg, PGlite) put the rows in `rows`. */
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

const assigned = alias(users, 'assigned_staff');

const listColumns = {
  sample: samples,
  userFirstName: users.firstName,
  userLastName: users.lastName,
  staffFirstName: assigned.firstName,
  staffLastName: assigned.lastName,
  firstPhoto: firstPhotoColumn(),
};

export type SampleListRow = {
  sample: SampleRow;
  userFirstName: string | null;
  userLastName: string | null;
  staffFirstName: string | null;
  staffLastName: string | null;
  firstPhoto: FirstPhoto;
};

/** The work list's columns only (GET /api/staff/samples): no long texts, no contact details. */
const workListColumns = {
  id: samples.id,
  userId: samples.userId,
  itemName: samples.itemName,
  category: samples.category,
  status: samples.status,
  urgencyLevel: samples.urgencyLevel,
  submitterName: samples.submitterName,
  isRepresentative: samples.isRepresentative,
  representativeName: samples.representativeName,
  clientName: samples.clientName,
  submissionDate: samples.submissionDate,
  lastUpdated: samples.lastUpdated,
  assignedStaffId: samples.assignedStaffId,
  reportGenerated: samples.reportGenerated,
  reportCode: samples.reportCode,
  reportRevokedAt: samples.reportRevokedAt,
  quoteStatus: samples.quoteStatus,
  quoteValidUntil: samples.quoteValidUntil,
  quoteAcceptedAt: samples.quoteAcceptedAt,
  custodyState: samples.custodyState,
  custodyLocationId: samples.custodyLocationId,
  custodyLocationName: samples.custodyLocationName,
  custodySince: samples.custodySince,
  userFirstName: users.firstName,
  userLastName: users.lastName,
  staffFirstName: assigned.firstName,
  staffLastName: assigned.lastName,
  firstPhoto: firstPhotoColumn(),
};

type WorkListTableColumns = Omit<typeof workListColumns, 'firstPhoto'>;
export type WorkListRow = {
  [K in keyof WorkListTableColumns]: WorkListTableColumns[K]['_']['notNull'] extends true
    ? WorkListTableColumns[K]['_']['data']
    : WorkListTableColumns[K]['_']['data'] | null;
} & { firstPhoto: FirstPhoto };

/** The work list's select (GET /api/staff/samples): filter, order and page it. */
export function workListQuery(db: DbOrTx) {
  return db
    .select(workListColumns)
    .from(samples)
    .leftJoin(users, eq(users.id, samples.userId))
    .leftJoin(assigned, eq(assigned.id, samples.assignedStaffId));
}

/**
 * The CSV export's columns only (GET /api/admin/samples.csv): what its cells are made of. No first
 * photo (a subquery per row), no long texts: an export of a million rows reads each of them once,
 * so every column it does not need costs memory and time for nothing. The rows come back as arrays
 * of text (`Database.eachTextRow`), the columns in this order (`EXPORT_AT`).
 */
const exportColumns = {
  id: samples.id,
  itemName: samples.itemName,
  category: samples.category,
  status: samples.status,
  submitterName: samples.submitterName,
  submitterEmail: samples.submitterEmail,
  representativeName: samples.representativeName,
  clientName: samples.clientName,
  submissionDate: samples.submissionDate,
  lastUpdated: samples.lastUpdated,
  urgencyLevel: samples.urgencyLevel,
  quoteStatus: samples.quoteStatus,
  quoteValidUntil: samples.quoteValidUntil,
  quoteAcceptedAt: samples.quoteAcceptedAt,
  expectedCompletion: samples.expectedCompletion,
  reportCode: samples.reportCode,
  userFirstName: users.firstName,
  userLastName: users.lastName,
  staffFirstName: assigned.firstName,
  staffLastName: assigned.lastName,
};

/** One exported sample: each column's text as PostgreSQL sends it, at its `EXPORT_AT` index. */
export type SampleExportRow = TextRow;

/** Where each export column sits in a row; the sort key, when the export is sorted, comes last. */
export const EXPORT_AT = columnIndexes(exportColumns);

/**
 * The CSV export's select: filter, order and read it in batches, as text rows. `sortKey` (the sort
 * column as PostgreSQL's text, for the next batch's keyset bound) is added after the columns.
 */
export function exportQuery(db: DbOrTx, sortKey?: SQL<string>) {
  return db
    .select(sortKey ? { ...exportColumns, sortKey } : exportColumns)
    .from(samples)
    .leftJoin(users, eq(users.id, samples.userId))
    .leftJoin(assigned, eq(assigned.id, samples.assignedStaffId));
}

/** The lab list's select (GET /api/admin/samples): filter, order and page it. */
export function listQuery(db: DbOrTx) {
  return db
    .select(listColumns)
    .from(samples)
    .leftJoin(users, eq(users.id, samples.userId))
    .leftJoin(assigned, eq(assigned.id, samples.assignedStaffId));
}

// The hot list queries are prepared once per database (named statements skip the planner).
const lists = preparedStatements((db) => ({
  assigned: workListQuery(db)
    .where(eq(samples.assignedStaffId, sql.placeholder('staffId')))
    .orderBy(desc(samples.id))
    .offset(sql.placeholder('offset'))
    .limit(sql.placeholder('limit'))
    .prepare('workflow_assigned_work_list'),
  assignedCount: db
    .select({ n: count() })
    .from(samples)
    .where(eq(samples.assignedStaffId, sql.placeholder('staffId')))
    .prepare('workflow_assigned_work_count'),
  // An admin's work list pages like the lab list: below an id bound found from the id buckets.
  allBelow: workListQuery(db)
    .where(lt(samples.id, sql.placeholder('upperId')))
    .orderBy(desc(samples.id))
    .offset(sql.placeholder('skip'))
    .limit(sql.placeholder('limit'))
    .prepare('workflow_all_work_list_below'),
  // Skip over ids alone (an index-only scan), then join names for the page's rows only.
  below: listQuery(db)
    .where(
      inArray(
        samples.id,
        db
          .select({ id: samples.id })
          .from(samples)
          .where(lt(samples.id, sql.placeholder('upperId')))
          .orderBy(desc(samples.id))
          .offset(sql.placeholder('skip'))
          .limit(sql.placeholder('limit')),
      ),
    )
    .orderBy(desc(samples.id))
    .prepare('workflow_samples_below'),
}));

/** One page of the work list: `offset` rows skipped, at most `limit` rows, newest first. */
export type WorkListPage = { offset: number; limit: number };

/** One page of a staff member's assigned samples, newest first, and how many there are (index samples_assigned_staff_idx). */
export async function listAssignedSamples(
  db: Db,
  staffId: number,
  page: WorkListPage,
): Promise<{ rows: WorkListRow[]; total: number }> {
  const rows = (await lists(db).assigned.execute({ staffId, ...page })) as WorkListRow[];
  const [counted] = await lists(db).assignedCount.execute({ staffId });
  return { rows, total: Number(counted?.n ?? 0) };
}

/** One page of every sample's work-list row, newest first, and the total (an admin's GET /api/staff/samples). */
export async function listAllSamples(
  db: Db,
  page: WorkListPage,
): Promise<{ rows: WorkListRow[]; total: number }> {
  const at = await locatePage(db, page.offset);
  if (at.upperId === null) return { rows: [], total: at.total };
  const rows = (await lists(db).allBelow.execute({
    upperId: at.upperId,
    skip: at.skip,
    limit: page.limit,
  })) as WorkListRow[];
  return { rows, total: at.total };
}

/**
 * Where page `offset` (0-based, newest first) starts, from the trigger-kept counts per 1,000 ids:
 * the exact total, and the id bound and the few rows to skip below it. Reads ~n/1000 small rows
 * instead of counting or skipping n sample rows.
 */
export async function locatePage(
  db: DbOrTx,
  offset: number,
): Promise<{ total: number; upperId: number | null; skip: number }> {
  const result = await db.execute(sql`
    with b as (
      select bucket, rows, sum(rows) over (order by bucket desc) as cum
      from sample_id_buckets where rows > 0
    )
    select
      (select coalesce(sum(rows), 0) from sample_id_buckets) as total,
      hit.bucket, coalesce(hit.cum - hit.rows, 0) as before
    from (select 1) one
    left join lateral (
      select bucket, rows, cum from b where cum > ${offset} order by bucket desc limit 1
    ) hit on true`);
  const row = rowsOf<{ total: string | number; bucket: number | null; before: string | number }>(result)[0];
  const total = Number(row?.total ?? 0);
  if (!row || row.bucket === null || row.bucket === undefined) return { total, upperId: null, skip: 0 };
  return {
    total,
    upperId: (Number(row.bucket) + 1) * SAMPLE_ID_BUCKET,
    skip: offset - Number(row.before),
  };
}

/** One page below an id bound: an index range scan that skips fewer than 1,000 rows. */
export function samplesBelow(db: Db, upperId: number, skip: number, limit: number): Promise<SampleListRow[]> {
  return lists(db).below.execute({ upperId, skip, limit });
}

export async function findUserForAssignment(db: DbOrTx, id: number) {
  const [row] = await db
    .select({ id: users.id, role: users.role, isActive: users.isActive })
    .from(users)
    .where(eq(users.id, id))
    .limit(1);
  return row;
}

export async function assignSample(
  db: DbOrTx,
  sampleId: number,
  staffId: number,
): Promise<SampleRow | undefined> {
  const now = new Date();
  const [row] = await db
    .update(samples)
    .set({ assignedStaffId: staffId, lastUpdated: now, updatedAt: now })
    .where(eq(samples.id, sampleId))
    .returning();
  return row;
}

/** The dashboard aggregate: counts per status, and submissions per week for the last `weeks` weeks. */
export async function sampleAnalytics(db: DbOrTx, weeks: number) {
  const byStatus = await db
    .select({ status: samples.status, count: sql<number>`count(*)::int` })
    .from(samples)
    .groupBy(samples.status);
  const weekly = await db.execute(sql`
    select to_char(w.week_start, 'YYYY-MM-DD') as week_start, count(s.id)::int as count
    from generate_series(
      date_trunc('week', now() at time zone 'UTC') - make_interval(weeks => ${weeks - 1}),
      date_trunc('week', now() at time zone 'UTC'),
      interval '1 week'
    ) as w(week_start)
    left join ${samples} s
      on s.submission_date >= (w.week_start at time zone 'UTC')
     and s.submission_date < ((w.week_start + interval '1 week') at time zone 'UTC')
    group by w.week_start
    order by w.week_start`);
  return {
    byStatus,
    weekly: rowsOf<{ week_start: string; count: number }>(weekly).map((r) => ({
      weekStart: r.week_start,
      count: Number(r.count),
    })),
  };
}

/**
 * What decides lateness for every sample that could be overdue: not completed, and submitted more
 * than five days ago (no turnaround is shorter than five business days).
 */
export function openSamplesProgress(db: DbOrTx) {
  return db
    .select({
      submissionDate: samples.submissionDate,
      urgencyLevel: samples.urgencyLevel,
      status: samples.status,
      quoteStatus: samples.quoteStatus,
      quoteValidUntil: samples.quoteValidUntil,
      quoteAcceptedAt: samples.quoteAcceptedAt,
    })
    .from(samples)
    .where(and(ne(samples.status, 'completed'), lt(samples.submissionDate, sql`now() - interval '5 days'`)));
}
