import { and, asc, desc, eq, gte, inArray, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { SampleFilters, SampleSort } from '../../../common/contracts/sample-search';
import { MAX_PAGED_ROWS } from '../../../common/contracts/sample-search';
import { SAMPLE_STATUSES, normalizeStatus } from '../../../common/domain/samples';
import type { DbOrTx } from '../../db/client';
import { samples } from '../../db/schema';
import { parseSearch } from './sample-search';
import { listQuery, type SampleListRow, workListQuery, type WorkListRow } from './workflow.queries';

// The lab lists' search, filters and sorts (docs/decisions/0025-search.md). Text is matched in the
// generated, folded `search_text` column through its trigram index; ids and report codes through
// the primary key and the code's unique index, and ranked first.

/** Raw SQL answers: both drivers (pg, PGlite) put the rows in `rows`. */
const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** Who the caller may see: everyone (admin) or the samples assigned to one staff member. */
export type SampleScope = { assignedTo: number | null };

const today = sql`(timezone('UTC', now()))::date`;
const overdueCondition = sql`(${samples.status} <> 'completed' and ${samples.expectedCompletion} < ${today})`;

/** Is this the plain list (no search, no filter, newest first), which pages by id buckets? */
export function isPlainView(f: SampleFilters): boolean {
  return (
    !f.q &&
    !f.status?.length &&
    f.assignedStaffId === undefined &&
    !f.custody?.length &&
    f.overdue === undefined &&
    !f.from &&
    !f.to &&
    !f.sort
  );
}

/** The exact-match part of a search (id, code), used to rank those rows first. */
function exactMatch(f: SampleFilters): SQL | undefined {
  if (!f.q) return undefined;
  const { id, code } = parseSearch(f.q);
  const parts: SQL[] = [];
  if (id !== null) parts.push(eq(samples.id, id));
  if (code !== null) parts.push(eq(samples.reportCode, code));
  return parts.length ? or(...parts) : undefined;
}

function searchCondition(q: string): SQL {
  const { id, code, patterns } = parseSearch(q);
  const parts: SQL[] = [];
  if (id !== null) parts.push(eq(samples.id, id));
  if (code !== null) parts.push(eq(samples.reportCode, code));
  if (patterns.length)
    parts.push(and(...patterns.map((p) => sql`${samples.searchText} like vl_fold(${p})`)) as SQL);
  // Nothing searchable (only short words): nothing matches.
  return parts.length ? (or(...parts) as SQL) : sql`false`;
}

/** The WHERE of a list: the caller's scope and every filter. */
export function sampleWhere(f: SampleFilters, scope: SampleScope): SQL | undefined {
  const c: SQL[] = [];
  if (scope.assignedTo !== null) c.push(eq(samples.assignedStaffId, scope.assignedTo));
  if (f.q) c.push(searchCondition(f.q));
  if (f.status?.length) {
    // Unknown stored values read as 'submitted' (docs/product/statuses.md), so they are found with it.
    const known = sql`${samples.status} not in (${sql.join(
      SAMPLE_STATUSES.map((s) => sql`${s}`),
      sql`, `,
    )})`;
    const listed = inArray(samples.status, f.status);
    c.push(f.status.includes('submitted') ? (or(listed, known) as SQL) : listed);
  }
  if (f.assignedStaffId === 'none') c.push(isNull(samples.assignedStaffId));
  else if (f.assignedStaffId !== undefined) c.push(eq(samples.assignedStaffId, f.assignedStaffId));
  if (f.custody?.length) c.push(custodyCondition(f.custody));
  if (f.overdue === true) c.push(overdueCondition);
  if (f.overdue === false) c.push(sql`not ${overdueCondition}`);
  if (f.from) c.push(gte(samples.submissionDate, new Date(`${f.from}T00:00:00Z`)));
  if (f.to) c.push(lt(samples.submissionDate, new Date(Date.parse(`${f.to}T00:00:00Z`) + 86_400_000)));
  return c.length ? and(...c) : undefined;
}

/** Where the item is now (docs/product/custody.md). */
function custodyCondition(states: readonly string[]): SQL {
  return inArray(samples.custodyState, [...states]);
}

const SORT_COLUMNS = {
  submitted: samples.submissionDate,
  expected: samples.expectedCompletion,
  lastUpdated: samples.lastUpdated,
} as const;

function sortParts(sort: SampleSort | undefined): { column: SQL | typeof samples.id; descending: boolean } {
  if (!sort) return { column: samples.id, descending: true };
  const descending = sort.startsWith('-');
  const key = (descending ? sort.slice(1) : sort) as keyof typeof SORT_COLUMNS;
  return { column: SORT_COLUMNS[key] as unknown as SQL, descending };
}

/** ORDER BY: exact id or code matches first, then the sort (default newest first), then id. */
export function sampleOrder(f: SampleFilters): SQL[] {
  const order: SQL[] = [];
  const exact = exactMatch(f);
  if (exact) order.push(sql`(${exact}) desc`);
  const { column, descending } = sortParts(f.sort);
  const dir = descending ? desc : asc;
  if (f.sort) order.push(dir(column));
  order.push(dir(samples.id));
  return order;
}

export type ListWindow = { offset: number; limit: number };

/** One page of the lab list (GET /api/admin/samples) for a search or filter. */
export function searchLabList(
  db: DbOrTx,
  f: SampleFilters,
  scope: SampleScope,
  page: ListWindow,
): Promise<SampleListRow[]> {
  return listQuery(db)
    .where(sampleWhere(f, scope))
    .orderBy(...sampleOrder(f))
    .offset(page.offset)
    .limit(page.limit) as Promise<SampleListRow[]>;
}

/** One page of the work list (GET /api/staff/samples) for a search or filter. */
export function searchWorkList(
  db: DbOrTx,
  f: SampleFilters,
  scope: SampleScope,
  page: ListWindow,
): Promise<WorkListRow[]> {
  return workListQuery(db)
    .where(sampleWhere(f, scope))
    .orderBy(...sampleOrder(f))
    .offset(page.offset)
    .limit(page.limit) as Promise<WorkListRow[]>;
}

/**
 * How many rows a filter selects, without counting millions: exactly up to MAX_PAGED_ROWS (a count
 * that stops there), beyond it the planner's estimate (never less than MAX_PAGED_ROWS + 1).
 */
export async function countSamples(
  db: DbOrTx,
  f: SampleFilters,
  scope: SampleScope,
): Promise<{ total: number; estimated: boolean }> {
  const where = sampleWhere(f, scope) ?? sql`true`;
  const capped = await db.execute(
    sql`select count(*)::int as n from (select 1 from ${samples} where ${where} limit ${MAX_PAGED_ROWS + 1}) c`,
  );
  const n = Number(rowsOf<{ n: number }>(capped)[0]?.n ?? 0);
  if (n <= MAX_PAGED_ROWS) return { total: n, estimated: false };
  const plan = await db.execute(sql`explain (format json) select 1 from ${samples} where ${where}`);
  const planRow = rowsOf<Record<string, unknown>>(plan)[0];
  const json = planRow ? Object.values(planRow)[0] : null;
  const parsed = (typeof json === 'string' ? JSON.parse(json) : json) as
    [{ Plan: { 'Plan Rows': number } }] | null;
  const estimate = Math.round(parsed?.[0]?.Plan?.['Plan Rows'] ?? 0);
  return { total: Math.max(estimate, MAX_PAGED_ROWS + 1), estimated: true };
}

/** The work list's counters: every sample the caller sees, by status, and how many are overdue. */
export async function countWorkList(db: DbOrTx, scope: SampleScope) {
  const where = scope.assignedTo === null ? sql`true` : eq(samples.assignedStaffId, scope.assignedTo);
  const result = await db.execute(sql`
    select ${samples.status} as status, count(*)::int as n,
      count(*) filter (where ${overdueCondition})::int as overdue
    from ${samples} where ${where} group by ${samples.status}`);
  const counts = new Map<string, number>(SAMPLE_STATUSES.map((s) => [s, 0]));
  let overdue = 0;
  for (const r of rowsOf<{ status: string; n: number; overdue: number }>(result)) {
    const s = normalizeStatus(r.status);
    counts.set(s, (counts.get(s) ?? 0) + Number(r.n));
    overdue += Number(r.overdue);
  }
  const byStatus = SAMPLE_STATUSES.map((status) => ({ status, count: counts.get(status) ?? 0 }));
  return { total: byStatus.reduce((a, b) => a + b.count, 0), byStatus, overdue };
}

/**
 * Every row a filter selects, in its sort order, read in batches by keyset (the last row's sort
 * key and id bound the next batch): constant memory and no OFFSET, whatever the size.
 */
export async function* exportBatches(
  db: DbOrTx,
  f: SampleFilters,
  scope: SampleScope,
  batchSize = 1000,
): AsyncGenerator<SampleListRow[]> {
  const { column, descending } = sortParts(f.sort);
  const dir = descending ? desc : asc;
  const keyed = f.sort !== undefined;
  const sortKey = keyed ? sql<string>`${column}::text` : sql<string>`''`;
  let after: { key: string; id: number } | null = null;
  for (;;) {
    let bound: SQL | undefined;
    if (after) {
      const cmp = descending ? sql`<` : sql`>`;
      bound = keyed
        ? sql`(${column}, ${samples.id}) ${cmp} (${after.key}, ${after.id})`
        : sql`${samples.id} ${cmp} ${after.id}`;
    }
    const rows = (await listQuery(db)
      .where(and(sampleWhere(f, scope), bound))
      .orderBy(...(keyed ? [dir(column), dir(samples.id)] : [dir(samples.id)]))
      .limit(batchSize)) as SampleListRow[];
    if (!rows.length) return;
    yield rows;
    if (rows.length < batchSize) return;
    const last = rows[rows.length - 1] as SampleListRow;
    const keyValue = keyed ? await keyOf(db, last.sample.id, sortKey) : '';
    after = { key: keyValue, id: last.sample.id };
  }
}

/** The sort key of one row as PostgreSQL's text (exact timestamps, no JavaScript rounding). */
async function keyOf(db: DbOrTx, id: number, sortKey: SQL<string>): Promise<string> {
  const result = await db.execute(sql`select ${sortKey} as k from ${samples} where ${samples.id} = ${id}`);
  return String(rowsOf<{ k: string }>(result)[0]?.k ?? '');
}
