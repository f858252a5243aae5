import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type CustodyEvent, type CustodyState, IN_LAB_STATES } from '../../../common/domain/custody';
import type { DbOrTx } from '../../db/client';
import {
  type CustodyEventDetails,
  custodyEvents,
  sampleFiles,
  samples,
  storageLocations,
  users,
} from '../../db/schema';
import { enqueueJob } from '../../jobs/jobs';
import { PHOTO_COPIES_QUEUE, type PhotoCopiesPayload } from '../photos/photo-copies.job';
import type { StoredFile } from '../samples/samples.upload';

// The custody tables: storage locations, the custody history and the custody columns of samples
// (docs/product/custody.md). Every write takes the caller's transaction.

export type LocationRow = typeof storageLocations.$inferSelect;
export type SampleRow = typeof samples.$inferSelect;

const inLab = inArray(samples.custodyState, [...IN_LAB_STATES]);

/** Items in the lab at each location now. */
// The outer row is named with its table: in a single-table select Drizzle writes a bare "id".
const itemCount = sql<number>`(select count(*) from samples s
  where s.custody_location_id = ${storageLocations}."id"
    and s.custody_state in (${sql.join(
      IN_LAB_STATES.map((st) => sql`${st}`),
      sql`, `,
    )}))::int`;

/** Every location, active ones first, then by name; with how many items are there now. */
export function listLocations(db: DbOrTx) {
  return db
    .select({ ...getLocationColumns(), itemCount })
    .from(storageLocations)
    .orderBy(sql`${storageLocations.retiredAt} is not null`, asc(sql`lower(${storageLocations.name})`));
}

function getLocationColumns() {
  return {
    id: storageLocations.id,
    name: storageLocations.name,
    description: storageLocations.description,
    retiredAt: storageLocations.retiredAt,
    createdAt: storageLocations.createdAt,
    updatedAt: storageLocations.updatedAt,
  };
}

export async function findLocation(db: DbOrTx, id: number) {
  const [row] = await db
    .select({ ...getLocationColumns(), itemCount })
    .from(storageLocations)
    .where(eq(storageLocations.id, id))
    .limit(1);
  return row;
}

export async function insertLocation(db: DbOrTx, values: { name: string; description: string | null }) {
  const [row] = await db.insert(storageLocations).values(values).returning();
  if (!row) throw new Error('location not inserted');
  return { ...row, itemCount: 0 };
}

/** Renames, describes, retires or brings back a location; a new name is copied to the items there. */
export async function updateLocation(
  db: DbOrTx,
  id: number,
  values: { name?: string; description?: string | null; retiredAt?: Date | null },
) {
  const [row] = await db
    .update(storageLocations)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(storageLocations.id, id))
    .returning();
  if (row && values.name !== undefined)
    await db.update(samples).set({ custodyLocationName: row.name }).where(eq(samples.custodyLocationId, id));
  return row;
}

/** The sample's row, locked until the transaction ends (two desks cannot check one item in twice). */
export async function lockSample(db: DbOrTx, id: number): Promise<SampleRow | undefined> {
  const [row] = await db.select().from(samples).where(eq(samples.id, id)).for('update').limit(1);
  return row;
}

export type NewCustodyEvent = {
  sampleId: number;
  event: CustodyEvent;
  state: CustodyState;
  location: { id: number; name: string } | null;
  at: Date;
  byUserId: number;
  note: string | null;
  details: CustodyEventDetails;
};

/**
 * Records one custody event and moves the sample's custody columns to its outcome, answering the
 * event's id and the updated sample row.
 */
export async function recordCustodyEvent(
  db: DbOrTx,
  e: NewCustodyEvent,
): Promise<{ eventId: number; sample: SampleRow }> {
  const [event] = await db
    .insert(custodyEvents)
    .values({
      sampleId: e.sampleId,
      event: e.event,
      state: e.state,
      locationId: e.location?.id ?? null,
      at: e.at,
      byUserId: e.byUserId,
      note: e.note,
      details: e.details,
    })
    .returning({ id: custodyEvents.id });
  const [sample] = await db
    .update(samples)
    .set({
      custodyState: e.state,
      custodyLocationId: e.location?.id ?? null,
      custodyLocationName: e.location?.name ?? null,
      custodySince: e.at,
      lastUpdated: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(eq(samples.id, e.sampleId))
    .returning();
  if (!event || !sample) throw new Error('custody event not recorded');
  return { eventId: event.id, sample };
}

/** The arrival photos of an intake, as files of the sample, each with its display-copies job. */
export async function insertArrivalPhotos(
  db: DbOrTx,
  sampleId: number,
  eventId: number,
  files: StoredFile[],
): Promise<number[]> {
  if (!files.length) return [];
  const rows = await db
    .insert(sampleFiles)
    .values(
      files.map((f) => ({
        sampleId,
        fileName: f.fileName,
        originalName: f.originalName,
        fileType: f.fileType,
        fileSize: f.fileSize,
        fileCategory: 'photo',
        copiesState: 'pending',
        custodyEventId: eventId,
      })),
    )
    .returning({ id: sampleFiles.id });
  for (const r of rows)
    await enqueueJob<PhotoCopiesPayload>(db, { queue: PHOTO_COPIES_QUEUE, payload: { fileId: r.id } });
  return rows.map((r) => r.id);
}

const by = alias(users, 'custody_by');

/** A sample's custody history, oldest first; `events` limits it to those kinds. */
export function listCustodyEvents(db: DbOrTx, sampleId: number, events?: readonly CustodyEvent[]) {
  return db
    .select({
      id: custodyEvents.id,
      event: custodyEvents.event,
      state: custodyEvents.state,
      at: custodyEvents.at,
      locationId: custodyEvents.locationId,
      locationName: storageLocations.name,
      byUserId: custodyEvents.byUserId,
      byFirstName: by.firstName,
      byLastName: by.lastName,
      note: custodyEvents.note,
      details: custodyEvents.details,
      photoIds: sql<number[]>`coalesce((select json_agg(f.id order by f.id) from ${sampleFiles} f
        where f.custody_event_id = ${custodyEvents.id}), '[]'::json)`,
    })
    .from(custodyEvents)
    .leftJoin(storageLocations, eq(storageLocations.id, custodyEvents.locationId))
    .leftJoin(by, eq(by.id, custodyEvents.byUserId))
    .where(
      and(
        eq(custodyEvents.sampleId, sampleId),
        events ? inArray(custodyEvents.event, [...events]) : undefined,
      ),
    )
    .orderBy(asc(custodyEvents.at), asc(custodyEvents.id));
}
export type CustodyEventRow = Awaited<ReturnType<typeof listCustodyEvents>>[number];

/** The last time each in-lab item's status became completed, with the item and its owner. */
export function listInventory(db: DbOrTx, limit: number) {
  const owner = alias(users, 'inventory_owner');
  return db
    .select({
      sample: {
        id: samples.id,
        itemName: samples.itemName,
        status: samples.status,
        submissionDate: samples.submissionDate,
        custodyState: samples.custodyState,
        custodyLocationId: samples.custodyLocationId,
        custodyLocationName: samples.custodyLocationName,
        custodySince: samples.custodySince,
      },
      ownerFirstName: owner.firstName,
      ownerLastName: owner.lastName,
      submitterName: samples.submitterName,
      completedAt: sql<Date | null>`case when ${samples.status} = 'completed' then
        (select max(h.created_at) from sample_status_history h
          where h.sample_id = ${samples.id} and h.status = 'completed') end`.mapWith(samples.submissionDate),
    })
    .from(samples)
    .leftJoin(owner, eq(owner.id, samples.userId))
    .where(inLab)
    .orderBy(asc(sql`lower(coalesce(${samples.custodyLocationName}, ''))`), asc(samples.custodySince))
    .limit(limit);
}

/** Whether any location other than `id` already has this name (names are unique ignoring case). */
export async function locationNameTaken(db: DbOrTx, name: string, exceptId?: number) {
  const [row] = await db
    .select({ id: storageLocations.id })
    .from(storageLocations)
    .where(
      and(
        sql`lower(${storageLocations.name}) = lower(${name})`,
        exceptId ? sql`${storageLocations.id} <> ${exceptId}` : undefined,
      ),
    )
    .limit(1);
  return Boolean(row);
}

/** Who can hold an item: active staff and admins, by name. */
export function listExperts(db: DbOrTx) {
  return db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(users)
    .where(and(inArray(users.role, ['staff', 'admin']), eq(users.isActive, true)))
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id));
}

/** One active staff member or admin, or undefined. */
export async function findExpert(db: DbOrTx, id: number) {
  const [row] = await db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(users)
    .where(and(eq(users.id, id), inArray(users.role, ['staff', 'admin']), eq(users.isActive, true)))
    .limit(1);
  return row;
}
