import { and, desc, eq, gte, isNull, lt, lte, type SQL, sql } from 'drizzle-orm';
import type { AuditFilters } from '../../../common/contracts/audit';
import { AUDIT_SYSTEM_ACTOR } from '../../../common/domain/audit';
import { keysetBatches, type RowBatches } from '../../db/batches';
import type { Database, DbOrTx } from '../../db/client';
import { columnIndexes, type TextRow } from '../../db/text-rows';
import { auditChainHead, auditEvents } from '../../db/schema';

export type AuditRow = typeof auditEvents.$inferSelect;

const DAY_MS = 86_400_000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** The SQL of the filters; undefined when there are none (every event). */
function whereOf(f: AuditFilters): SQL | undefined {
  const parts: (SQL | undefined)[] = [];
  if (f.action) parts.push(eq(auditEvents.action, f.action));
  if (f.subjectType) parts.push(eq(auditEvents.subjectType, f.subjectType));
  if (f.subjectId) parts.push(eq(auditEvents.subjectId, f.subjectId));
  if (f.actor) {
    if (/^\d{1,9}$/.test(f.actor)) parts.push(eq(auditEvents.actorId, Number(f.actor)));
    else if (f.actor.toLowerCase() === AUDIT_SYSTEM_ACTOR)
      parts.push(and(isNull(auditEvents.actorId), eq(auditEvents.actorLabel, AUDIT_SYSTEM_ACTOR)));
    else parts.push(sql`lower(${auditEvents.actorLabel}) = ${f.actor.toLowerCase()}`);
  }
  if (f.from)
    parts.push(gte(auditEvents.at, new Date(DATE_ONLY.test(f.from) ? `${f.from}T00:00:00.000Z` : f.from)));
  if (f.to) {
    // A day includes all of itself: up to the next day's start.
    if (DATE_ONLY.test(f.to))
      parts.push(lt(auditEvents.at, new Date(Date.parse(`${f.to}T00:00:00.000Z`) + DAY_MS)));
    else parts.push(lte(auditEvents.at, new Date(f.to)));
  }
  const given = parts.filter((p): p is SQL => p !== undefined);
  return given.length ? and(...given) : undefined;
}

/** How many events the chain holds: the head's place (ids have no gaps). */
async function chainLength(db: DbOrTx): Promise<number> {
  const [head] = await db.select({ seq: auditChainHead.seq }).from(auditChainHead).limit(1);
  return Number(head?.seq ?? 0);
}

/**
 * One page, newest first, with the total. Without filters the page is an id range below the head
 * (ids have no gaps): any depth costs the same. With filters: an index scan, counted, at most
 * MAX_AUDIT_FILTERED_OFFSET rows deep (the caller checks).
 */
export async function auditPage(
  db: DbOrTx,
  filters: AuditFilters,
  window: { offset: number; limit: number },
): Promise<{ rows: AuditRow[]; total: number; filtered: boolean }> {
  const where = whereOf(filters);
  if (!where) {
    const total = await chainLength(db);
    const top = total - window.offset;
    if (top < 1) return { rows: [], total, filtered: false };
    const rows = await db
      .select()
      .from(auditEvents)
      .where(lte(auditEvents.id, top))
      .orderBy(desc(auditEvents.id))
      .limit(window.limit);
    return { rows, total, filtered: false };
  }
  const [counted] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(auditEvents)
    .where(where);
  const rows = await db
    .select()
    .from(auditEvents)
    .where(where)
    .orderBy(desc(auditEvents.id))
    .limit(window.limit)
    .offset(window.offset);
  return { rows, total: Number(counted?.n ?? 0), filtered: true };
}

/** The CSV's columns, in its order, read as text rows (`Database.eachTextRow`). */
const exportColumns = {
  id: auditEvents.id,
  at: auditEvents.at,
  actorId: auditEvents.actorId,
  actorLabel: auditEvents.actorLabel,
  action: auditEvents.action,
  subjectType: auditEvents.subjectType,
  subjectId: auditEvents.subjectId,
  before: auditEvents.before,
  after: auditEvents.after,
  network: auditEvents.network,
  prevHash: auditEvents.prevHash,
  hash: auditEvents.hash,
};

/** Where each exported column sits in an `AuditExportRow`. */
export const AUDIT_EXPORT_AT = columnIndexes(exportColumns);

/** One exported event: each column's text as PostgreSQL sends it. */
export type AuditExportRow = TextRow;

/**
 * Every matching event, newest first, in batches read by keyset (id below the last batch's): no
 * OFFSET, whatever the number of events. Each batch is one statement whose rows are arrays of text
 * handed over as they arrive, read only when the consumer asks for it (csvStream).
 */
export function auditExportBatches(
  database: Pick<Database, 'db' | 'eachTextRow'>,
  filters: AuditFilters,
  batchSize = 1000,
): RowBatches<AuditExportRow> {
  const where = whereOf(filters);
  return keysetBatches<AuditExportRow, number>(
    batchSize,
    (below, onRow) =>
      database.eachTextRow(
        database.db
          .select(exportColumns)
          .from(auditEvents)
          .where(and(where, below === null ? undefined : lt(auditEvents.id, below)))
          .orderBy(desc(auditEvents.id))
          .limit(batchSize)
          .toSQL(),
        onRow,
      ),
    (last) => Number(last[AUDIT_EXPORT_AT.id]),
  );
}
