import { and, asc, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { collections, type ScheduleItemRecord, samples, schedules } from '../../db/schema';
import type { StoredValuation } from '../collections/collections.queries';

// The SQL of schedules (docs/product/schedules.md).

export type ScheduleRow = typeof schedules.$inferSelect;

/**
 * A collection's items for its schedule, by sample id, with the current issued revision of each
 * report (its number and stated value); `revision` is null for an item without an issued report.
 */
export function scheduleItemsOf(db: DbOrTx, collectionId: number) {
  return db
    .select({
      id: samples.id,
      itemName: samples.itemName,
      category: samples.category,
      reportGenerated: samples.reportGenerated,
      reportCode: samples.reportCode,
      reportRevokedAt: samples.reportRevokedAt,
      revision: sql<number | null>`(select r.revision from report_revisions r
          where r.sample_id = ${samples}."id" and r.state = 'issued' order by r.revision desc limit 1)`,
      valuation: sql<StoredValuation>`(select r.content -> 'valuation' from report_revisions r
          where r.sample_id = ${samples}."id" and r.state = 'issued' order by r.revision desc limit 1)`,
    })
    .from(samples)
    .where(eq(samples.collectionId, collectionId))
    .orderBy(asc(samples.id));
}
export type ScheduleItemRow = Awaited<ReturnType<typeof scheduleItemsOf>>[number];

/** Is `code` taken by a report or a schedule? (Both verify publicly, so they share one space.) */
export async function codeTaken(db: DbOrTx, code: string): Promise<boolean> {
  const [report] = await db
    .select({ id: samples.id })
    .from(samples)
    .where(eq(samples.reportCode, code))
    .limit(1);
  if (report) return true;
  const [schedule] = await db
    .select({ id: schedules.id })
    .from(schedules)
    .where(eq(schedules.code, code))
    .limit(1);
  return Boolean(schedule);
}

/** Locks the collection's row for the rest of the transaction: one schedule at a time per collection. */
export async function lockCollection(db: DbOrTx, id: number) {
  await db.select({ id: collections.id }).from(collections).where(eq(collections.id, id)).for('update');
}

export async function insertSchedule(
  db: DbOrTx,
  values: {
    code: string;
    collectionId: number;
    issuedBy: number;
    issuedAt: Date;
    storageKey: string;
    pdfSha256: string;
    items: ScheduleItemRecord[];
  },
): Promise<ScheduleRow> {
  const [row] = await db.insert(schedules).values(values).returning();
  if (!row) throw new Error('schedule not stored');
  return row;
}

/** The collection's newest schedule. */
export async function latestScheduleOf(db: DbOrTx, collectionId: number): Promise<ScheduleRow | undefined> {
  const [row] = await db
    .select()
    .from(schedules)
    .where(eq(schedules.collectionId, collectionId))
    .orderBy(desc(schedules.id))
    .limit(1);
  return row;
}

export async function findScheduleByCode(db: DbOrTx, code: string): Promise<ScheduleRow | undefined> {
  const [row] = await db.select().from(schedules).where(eq(schedules.code, code)).limit(1);
  return row;
}

/** The report codes among `codes` withdrawn now. */
export async function revokedReportCodes(db: DbOrTx, codes: string[]): Promise<Set<string>> {
  if (!codes.length) return new Set();
  const rows = await db
    .select({ code: samples.reportCode })
    .from(samples)
    .where(and(inArray(samples.reportCode, codes), isNotNull(samples.reportRevokedAt)));
  return new Set(rows.map((r) => r.code ?? ''));
}
