import { and, desc, eq, gte, isNull, lt, lte, type SQL, sql } from 'drizzle-orm';
import type { AuditFilters } from '../../../common/contracts/audit';
import { AUDIT_SYSTEM_ACTOR } from '../../../common/domain/audit';
import type { DbOrTx } from '../../db/client';
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

/** Every matching event, newest first, read in batches by id (never all in memory). */
export async function* auditEventsNewestFirst(
  db: DbOrTx,
  filters: AuditFilters,
  batchSize = 1000,
): AsyncGenerator<AuditRow> {
  const where = whereOf(filters);
  let below: number | null = null;
  for (;;) {
    const bound: SQL | undefined = below === null ? undefined : lt(auditEvents.id, below);
    const rows: AuditRow[] = await db
      .select()
      .from(auditEvents)
      .where(and(where, bound))
      .orderBy(desc(auditEvents.id))
      .limit(batchSize);
    yield* rows;
    const last = rows[rows.length - 1];
    if (!last || rows.length < batchSize) return;
    below = last.id;
  }
}
