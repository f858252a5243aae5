import { and, asc, desc, eq, gte, inArray, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { SampleFilters, SampleSort } from '../../../common/contracts/sample-search';
import { MAX_PAGED_ROWS } from '../../../common/contracts/sample-search';
import { SAMPLE_STATUSES, normalizeStatus } from '../../../common/domain/samples';
import { keysetBatches, type RowBatches } from '../../db/batches';
import type { Database, DbOrTx } from '../../db/client';
import { samples } from '../../db/schema';
import { parseSearch } from './sample-search';
import {
  EXPORT_AT,
  exportQuery,
  listQuery,
  type SampleExportRow,
  type SampleListRow,
  workListQuery,
  type WorkListRow,
} from './workflow.queries';

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

/**
 * The filters of one request, with what the database told about its search text: `exactEmail` when
 * the text is a whole e-mail address that some sample carries (see prepareFilters).
 */
export type PreparedFilters = SampleFilters & { readonly exactEmail?: string };

const submitterEmail = sql`lower(${samples.submitterEmail})`;
const representativeEmail = sql`lower(${samples.representativeEmail})`;

/**
 * A search written as a whole e-mail address that some sample carries (as the submitter's or the
 * representative's) matches that address exactly, through the `lower(…)` btree indexes: a few ms
 * at any size, where its dozens of trigrams, several of them in every row, cost the trigram index
 * hundreds. An address no sample carries is searched as text (it may be part of a longer one).
 */
export async function prepareFilters(db: DbOrTx, f: SampleFilters): Promise<PreparedFilters> {
  const email = f.q ? parseSearch(f.q).email : null;
  if (!email) return f;
  const found = await db.execute(
    sql`select 1 from ${samples} where ${submitterEmail} = ${email} or ${representativeEmail} = ${email} limit 1`,
  );
  return rowsOf(found).length ? { ...f, exactEmail: email } : f;
}

function searchCondition(q: string, exactEmail: string | undefined): SQL {
  if (exactEmail)
    return or(sql`${submitterEmail} = ${exactEmail}`, sql`${representativeEmail} = ${exactEmail}`) as SQL;
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
export function sampleWhere(f: PreparedFilters, scope: SampleScope): SQL | undefined {
  const c: SQL[] = [];
  if (scope.assignedTo !== null) c.push(eq(samples.assignedStaffId, scope.assignedTo));
  if (f.q) c.push(searchCondition(f.q, f.exactEmail));
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
  f: PreparedFilters,
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
  f: PreparedFilters,
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
 * How long the exact count of a searched or filtered list may run before the planner's estimate
 * stands in (docs/decisions/0025-search.md): a common word with a filter can match 100,000 rows
 * of ten million, and counting them, even only up to MAX_PAGED_ROWS, costs more than the page.
 */
export const COUNT_BUDGET_MS = 25;
/** Below this many samples (the table's statistics) every count is exact: it cannot be slow. */
export const COUNT_BUDGET_FROM_ROWS = 200_000;

/** PostgreSQL's "canceling statement due to statement timeout", wherever a driver wraps it. */
function isStatementTimeout(err: unknown): boolean {
  let e: unknown = err;
  for (let i = 0; i < 5 && e && typeof e === 'object'; i++) {
    if ((e as { code?: unknown }).code === '57014') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Runs a query answering one row `{ n }` under a statement timeout of `budgetMs`: its `n`, or null
 * when the budget ran out (the query is cancelled by the database, nothing is left running).
 */
export async function countWithin(db: DbOrTx, query: SQL, budgetMs: number): Promise<number | null> {
  const ms = Math.max(1, Math.floor(budgetMs));
  const counting = db.transaction(async (tx) => {
    await tx.execute(sql.raw(`set local statement_timeout = ${ms}`));
    const result = await tx.execute(query);
    return Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
  });
  // PostgreSQL notices the timeout only between steps: building a large trigram bitmap can run on
  // past it (80 ms seen at ten million rows). The answer does not wait: past the budget and a small
  // margin it goes on without the count, which the database cancels on its own.
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ms + 5);
  });
  try {
    const first = await Promise.race([counting, late]);
    if (first === 'late') {
      counting.catch(() => undefined);
      return null;
    }
    return first;
  } catch (err) {
    if (isStatementTimeout(err)) return null;
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * How many rows a filter selects, without counting millions: exactly up to MAX_PAGED_ROWS (a count
 * that stops there) when that takes less than `budgetMs` (or the table is small); otherwise the planner's estimate, flagged
 * as such (never less than MAX_PAGED_ROWS + 1 when the count reached it).
 */
export async function countSamples(
  db: DbOrTx,
  f: PreparedFilters,
  scope: SampleScope,
  budgetMs = COUNT_BUDGET_MS,
): Promise<{ total: number; estimated: boolean }> {
  const where = sampleWhere(f, scope) ?? sql`true`;
  const counting = sql`select count(*)::int as n from (select 1 from ${samples} where ${where} limit ${MAX_PAGED_ROWS + 1}) c`;
  const stats = await db.execute(
    sql`select reltuples::float8 as rows from pg_class where oid = 'samples'::regclass`,
  );
  const large = Number(rowsOf<{ rows: number }>(stats)[0]?.rows ?? 0) >= COUNT_BUDGET_FROM_ROWS;
  const n = large
    ? await countWithin(db, counting, budgetMs)
    : Number(rowsOf<{ n: number }>(await db.execute(counting))[0]?.n ?? 0);
  if (n !== null && n <= MAX_PAGED_ROWS) return { total: n, estimated: false };
  const plan = await db.execute(sql`explain (format json) select 1 from ${samples} where ${where}`);
  const planRow = rowsOf<Record<string, unknown>>(plan)[0];
  const json = planRow ? Object.values(planRow)[0] : null;
  const parsed = (typeof json === 'string' ? JSON.parse(json) : json) as
    [{ Plan: { 'Plan Rows': number } }] | null;
  const estimate = Math.round(parsed?.[0]?.Plan?.['Plan Rows'] ?? 0);
  return { total: n === null ? estimate : Math.max(estimate, MAX_PAGED_ROWS + 1), estimated: true };
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
 * key and id bound the next batch): no OFFSET, whatever the size. Each batch is one statement whose
 * rows are arrays of text handed over as they arrive (`Database.eachTextRow`, columns at
 * `EXPORT_AT`); a sorted export also selects the sort column as PostgreSQL's text (exact
 * timestamps, no JavaScript rounding), last. The next batch is read only when the consumer asks for
 * it (csvStream).
 */
export function exportBatches(
  database: Pick<Database, 'db' | 'eachTextRow'>,
  f: PreparedFilters,
  scope: SampleScope,
  batchSize = 1000,
): RowBatches<SampleExportRow> {
  const { column, descending } = sortParts(f.sort);
  const dir = descending ? desc : asc;
  const keyed = f.sort !== undefined;
  const sortKey = keyed ? sql<string>`${column}::text` : undefined;
  const sortKeyAt = Object.keys(EXPORT_AT).length;
  const cmp = descending ? sql`<` : sql`>`;
  return keysetBatches<SampleExportRow, { key: string | null; id: string | null }>(
    batchSize,
    (after, onRow) => {
      let bound: SQL | undefined;
      if (after)
        bound = keyed
          ? sql`(${column}, ${samples.id}) ${cmp} (${after.key}, ${after.id})`
          : sql`${samples.id} ${cmp} ${after.id}`;
      return database.eachTextRow(
        exportQuery(database.db, sortKey)
          .where(and(sampleWhere(f, scope), bound))
          .orderBy(...(keyed ? [dir(column), dir(samples.id)] : [dir(samples.id)]))
          .limit(batchSize)
          .toSQL(),
        onRow,
      );
    },
    (last) => ({ key: keyed ? (last[sortKeyAt] ?? null) : null, id: last[EXPORT_AT.id] ?? null }),
  );
}
