import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { collections, samples, users } from '../../db/schema';
import { firstPhotoColumn } from '../samples/samples.queries';

// The SQL of collections (docs/product/collections.md). A sample belongs to at most one collection:
// `samples.collection_id` (docs/decisions/0028-collections-and-bulk-intake.md).

export type CollectionRow = typeof collections.$inferSelect;

/**
 * Items of a collection, and those with an issued report that is not withdrawn. The outer row is
 * named with its table: in a single-table select Drizzle writes `${collections.id}` as a bare "id",
 * which inside the subquery would mean the sample's own id.
 */
const progressColumns = {
  total: sql<number>`(select count(*) from ${samples} s where s.collection_id = ${collections}."id")::int`,
  reported: sql<number>`(select count(*) from ${samples} s where s.collection_id = ${collections}."id"
      and s.report_generated and s.report_revoked_at is null)::int`,
};

export async function insertCollection(
  db: DbOrTx,
  values: { userId: number; name: string; purpose: string },
): Promise<CollectionRow> {
  const [row] = await db.insert(collections).values(values).returning();
  if (!row) throw new Error('collection not stored');
  return row;
}

export async function findCollection(db: DbOrTx, id: number): Promise<CollectionRow | undefined> {
  const [row] = await db.select().from(collections).where(eq(collections.id, id)).limit(1);
  return row;
}

/** The collection's row locked for the rest of the transaction (filling it). */
export async function findCollectionForUpdate(db: DbOrTx, id: number): Promise<CollectionRow | undefined> {
  const [row] = await db.select().from(collections).where(eq(collections.id, id)).for('update').limit(1);
  return row;
}

/** The caller's own collections with their progress, newest first. */
export function listOwnCollections(db: DbOrTx, userId: number) {
  return db
    .select({ collection: collections, ...progressColumns })
    .from(collections)
    .where(eq(collections.userId, userId))
    .orderBy(desc(collections.id));
}

/** One collection with its owner's name and its progress. */
export async function findCollectionHead(db: DbOrTx, id: number) {
  const [row] = await db
    .select({
      collection: collections,
      owner: { id: users.id, firstName: users.firstName, lastName: users.lastName },
      ...progressColumns,
    })
    .from(collections)
    .innerJoin(users, eq(users.id, collections.userId))
    .where(eq(collections.id, id))
    .limit(1);
  return row;
}

/** An issued revision's valuation as stored (minor units), or null. */
export type StoredValuation = {
  low: number | null;
  high: number;
  currency: string;
  valueType: string;
  effectiveDate: string;
} | null;

/** A collection's items in the order they joined (by sample id), with the latest issued report's valuation. */
export function listCollectionItems(db: DbOrTx, collectionId: number) {
  return db
    .select({
      id: samples.id,
      itemName: samples.itemName,
      category: samples.category,
      status: samples.status,
      submissionDate: samples.submissionDate,
      custodyState: samples.custodyState,
      custodyLocationId: samples.custodyLocationId,
      custodyLocationName: samples.custodyLocationName,
      custodySince: samples.custodySince,
      reportGenerated: samples.reportGenerated,
      reportGeneratedAt: samples.reportGeneratedAt,
      reportCode: samples.reportCode,
      reportRevokedAt: samples.reportRevokedAt,
      valuation: sql<StoredValuation>`(select r.content -> 'valuation' from report_revisions r
          where r.sample_id = ${samples}."id" and r.state = 'issued' order by r.revision desc limit 1)`,
      firstPhoto: firstPhotoColumn(),
    })
    .from(samples)
    .where(eq(samples.collectionId, collectionId))
    .orderBy(asc(samples.id));
}
export type CollectionItemRow = Awaited<ReturnType<typeof listCollectionItems>>[number];

/** The samples named, locked, with the collection each is in now (its name for the message). */
export function samplesForFilling(db: DbOrTx, ids: number[]) {
  return db
    .select({
      id: samples.id,
      userId: samples.userId,
      collectionId: samples.collectionId,
      collectionName: sql<
        string | null
      >`(select c.name from ${collections} c where c.id = ${samples}."collection_id")`,
    })
    .from(samples)
    .where(inArray(samples.id, ids))
    .orderBy(asc(samples.id))
    .for('update', { of: samples });
}

/** Puts the samples in the collection; answers how many moved in. */
export async function putSamplesInCollection(
  db: DbOrTx,
  collectionId: number,
  ids: number[],
): Promise<number> {
  if (!ids.length) return 0;
  const rows = await db
    .update(samples)
    .set({ collectionId })
    .where(and(inArray(samples.id, ids), sql`${samples.collectionId} is null`))
    .returning({ id: samples.id });
  return rows.length;
}

/** Marks the collection changed (its list orders and dates follow it). */
export async function touchCollection(db: DbOrTx, id: number): Promise<void> {
  await db.update(collections).set({ updatedAt: new Date() }).where(eq(collections.id, id));
}
