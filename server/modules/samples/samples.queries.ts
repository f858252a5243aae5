import { type NewOutboxRow, outboxCte } from '../../mail/mailer';
import { and, type Column, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { StoredReportContent } from '../../../common/contracts/reports';
import type { PersonName } from '../../../common/contracts/samples';
import type { Db } from '../../db/client';
import { preparedStatements } from '../../db/prepared';
import {
  collections,
  jobs,
  labSettings,
  quotes,
  sampleFiles,
  sampleStatusHistory,
  samples,
  users,
} from '../../db/schema';
import type { LabSettingsRow } from '../../db/lab-settings';
import type { SampleRow } from '../../db/samples';
import { DEFAULT_MAX_ATTEMPTS } from '../../jobs/jobs';
import { PHOTO_COPIES_FAIR_KEY_PREFIX, PHOTO_COPIES_QUEUE } from '../photos/photo-copies.job';
import { endReservationCte } from './submission-reservations.queries';

export type NewSample = typeof samples.$inferInsert;
export type NewSampleFile = Omit<typeof sampleFiles.$inferInsert, 'sampleId'>;
export type { SampleRow };
export type SampleFileRow = typeof sampleFiles.$inferSelect;

const sampleColumns = getTableColumns(samples);
const quoteColumns = getTableColumns(quotes);
const labColumns = getTableColumns(labSettings);
type QuoteRow = typeof quotes.$inferSelect;

/** A raw row (database column names, driver or JSON values) as drizzle would have mapped it. */
function fromDriverRow<T>(columns: Record<string, Column>, raw: Record<string, unknown>): T {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(columns)) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as T;
}
const sampleFromDriverRow = (raw: Record<string, unknown>) => fromDriverRow<SampleRow>(sampleColumns, raw);

/**
 * The sample, its files, its first status-history row ('submitted') and one background job per photo
 * to make its display copies (docs/product/photos.md) in ONE statement (data-modifying
 * CTEs are all-or-nothing), answering the stored row. Not a multi-statement transaction: inserting a
 * sample bumps its id block's row in `sample_id_buckets` (trigger), and a transaction would hold that
 * row's lock across several round trips, so concurrent submissions queued behind each other and took
 * the connection pool with them (docs/benchmarks.md, load).
 */
export async function insertSubmittedSample(
  db: Db,
  sample: NewSample,
  files: NewSampleFile[],
  /**
   * The receipt mail, rendered for the sample's id with the lab's settings (read with the id): stored
   * by the same statement (docs/product/mail.md).
   */
  receipt?: (sampleId: number, lab: LabSettingsRow | null) => Promise<NewOutboxRow>,
  /** The customer's reservation for this submission, ended by the same statement. */
  reservationId?: number,
): Promise<{ sample: SampleRow }> {
  // The receipt names the display id, so the id is drawn first (a gap if the insert then fails), with
  // the lab's settings its rendering needs in the same round trip.
  let id: number | undefined;
  let mail: NewOutboxRow | undefined;
  if (receipt) {
    const drawn = await db.execute(sql`select nextval(pg_get_serial_sequence('samples', 'id')) as id,
      (select row_to_json(l) from ${labSettings} l order by l.id limit 1) as lab`);
    const row = (drawn as unknown as { rows: { id: string | number; lab: Record<string, unknown> | null }[] })
      .rows[0];
    id = Number(row?.id);
    mail = await receipt(id, row?.lab ? fromDriverRow<LabSettingsRow>(labColumns, row.lab) : null);
  }
  const insertSample = db
    .insert(samples)
    .values({ ...sample, ...(id ? { id } : {}), status: 'submitted' })
    .returning();
  const fileRows = JSON.stringify(
    files.map((f) => ({
      file_name: f.fileName,
      original_name: f.originalName,
      file_type: f.fileType,
      file_size: f.fileSize,
      file_category: f.fileCategory,
      upload_date: (f.uploadDate ?? new Date()).toISOString(),
    })),
  );
  const result = await db.execute(sql`
    with s as (${insertSample.getSQL()}),
    f as (
      insert into ${sampleFiles} (sample_id, file_name, original_name, file_type, file_size, file_category, upload_date, copies_state)
      select s.id, x.file_name, x.original_name, x.file_type, x.file_size, x.file_category, x.upload_date,
        case when x.file_category = 'photo' then 'pending' end
      from s cross join json_to_recordset(${fileRows}::json) as x(
        file_name varchar(255), original_name varchar(255), file_type varchar(255), file_size integer,
        file_category varchar(50), upload_date timestamptz)
      returning id, file_category
    ),
    j as (
      insert into ${jobs} (queue, payload, max_attempts, fair_key)
      select ${PHOTO_COPIES_QUEUE}, json_build_object('fileId', f.id)::jsonb, ${DEFAULT_MAX_ATTEMPTS}::integer,
        ${PHOTO_COPIES_FAIR_KEY_PREFIX} || s.user_id::text
      from f cross join s where f.file_category = 'photo'
    ),
    h as (
      insert into ${sampleStatusHistory} (sample_id, status, comment, updated_by)
      select s.id, 'submitted', 'Sample submitted', s.user_id from s
    )${mail ? sql`, ${outboxCte(mail)}` : sql``}${reservationId ? sql`, ${endReservationCte(reservationId)}` : sql``}
    select * from s`);
  const raw = (result as unknown as { rows: Record<string, unknown>[] }).rows[0];
  if (!raw) throw new Error('sample not inserted');
  return { sample: sampleFromDriverRow(raw) };
}

/** Whether collection `id` is `userId`'s own (a submission may join only one of theirs). */
export async function ownsCollection(db: Db, userId: number, id: number): Promise<boolean> {
  const [row] = await db
    .select({ id: collections.id })
    .from(collections)
    .where(and(eq(collections.id, id), eq(collections.userId, userId)))
    .limit(1);
  return Boolean(row);
}

export type FirstPhoto = { id: number; copiesState: string | null } | null;

/**
 * A list row's first photo (its id and copies' state), for the lists' thumbnails (docs/product/photos.md).
 * The outer row is named with its table on purpose: in a single-table select Drizzle writes
 * `${samples.id}` as a bare "id", which inside this subquery would mean the file's own id.
 */
export const firstPhotoColumn = () =>
  sql<FirstPhoto>`(select json_build_object('id', f.id, 'copiesState', f.copies_state) from sample_files f
      where f.sample_id = ${samples}."id" and f.file_category = 'photo' order by f.id limit 1)`;

const ownListColumns = {
  id: samples.id,
  itemName: samples.itemName,
  category: samples.category,
  status: samples.status,
  urgencyLevel: samples.urgencyLevel,
  submissionDate: samples.submissionDate,
  lastUpdated: samples.lastUpdated,
  reportGenerated: samples.reportGenerated,
  reportCode: samples.reportCode,
  reportRevokedAt: samples.reportRevokedAt,
  expertValuation: samples.expertValuation,
  authenticityCheck: samples.authenticityCheck,
  conditionAssessment: samples.conditionAssessment,
  provenanceResearch: samples.provenanceResearch,
  quoteStatus: samples.quoteStatus,
  revalueBy: samples.revalueBy,
  quoteValidUntil: samples.quoteValidUntil,
  quoteAcceptedAt: samples.quoteAcceptedAt,
  custodyState: samples.custodyState,
  custodyLocationId: samples.custodyLocationId,
  custodyLocationName: samples.custodyLocationName,
  custodySince: samples.custodySince,
  collectionId: samples.collectionId,
  firstPhoto: firstPhotoColumn(),
};
export type OwnSampleRow = Pick<SampleRow, Exclude<keyof typeof ownListColumns, 'firstPhoto'>> & {
  firstPhoto: FirstPhoto;
};

/** The caller's own samples, newest first (a named statement: every dashboard load runs it). */
export function listOwnSamples(db: Db, userId: number): Promise<OwnSampleRow[]> {
  return prepared(db).ownSamples.execute({ userId });
}

export async function findSample(db: Db, id: number): Promise<SampleRow | undefined> {
  const [row] = await prepared(db).byId.execute({ id });
  return row;
}

const owner = alias(users, 'owner');
const staff = alias(users, 'staff');

type FileJson = Omit<SampleFileRow, 'uploadDate'> & { uploadDate: string };
type ElementJson = {
  id: number;
  sampleId: number;
  element: string;
  percentage: number | string;
  purity: string | null;
  quality: string | null;
  notes: string | null;
  createdAt: string;
};
type HistoryJson = {
  id: number;
  status: string;
  comment: string | null;
  createdAt: string;
  authorId: number | null;
  authorFirstName: string | null;
  authorLastName: string | null;
};

const prepared = preparedStatements((db) => ({
  byId: db
    .select()
    .from(samples)
    .where(eq(samples.id, sql.placeholder('id')))
    .limit(1)
    .prepare('samples_by_id'),
  ownSamples: db
    .select(ownListColumns)
    .from(samples)
    .where(eq(samples.userId, sql.placeholder('userId')))
    .orderBy(desc(samples.id))
    .prepare('samples_own_list'),
  // One round trip for the whole sample page: the children come back as JSON arrays.
  detail: db
    .select({
      sample: samples,
      user: { firstName: owner.firstName, lastName: owner.lastName },
      assignedStaff: { id: staff.id, firstName: staff.firstName, lastName: staff.lastName },
      files: sql<FileJson[]>`coalesce((select json_agg(json_build_object(
            'id', f.id, 'sampleId', f.sample_id, 'fileName', f.file_name, 'originalName', f.original_name,
            'fileType', f.file_type, 'fileSize', f.file_size, 'fileCategory', f.file_category,
            'uploadDate', f.upload_date, 'copiesState', f.copies_state) order by f.id)
          from sample_files f where f.sample_id = ${samples.id}), '[]'::json)`,
      elements: sql<ElementJson[]>`coalesce((select json_agg(json_build_object(
            'id', e.id, 'sampleId', e.sample_id, 'element', e.element, 'percentage', e.percentage,
            'purity', e.purity, 'quality', e.quality, 'notes', e.notes, 'createdAt', e.created_at) order by e.id)
          from report_elements e where e.sample_id = ${samples.id}), '[]'::json)`,
      report: sql<StoredReportContent | null>`(select r.content from report_revisions r
          where r.sample_id = ${samples.id} and r.state = 'issued' order by r.revision desc limit 1)`,
      history: sql<HistoryJson[]>`coalesce((select json_agg(json_build_object(
            'id', h.id, 'status', h.status, 'comment', h.comment, 'createdAt', h.created_at,
            'authorId', a.id, 'authorFirstName', a.first_name, 'authorLastName', a.last_name) order by h.id)
          from sample_status_history h left join users a on a.id = h.updated_by
          where h.sample_id = ${samples.id}), '[]'::json)`,
      // The sample's latest quote, if any (the page shows it): in the same round trip.
      quote: sql<Record<string, unknown> | null>`(select row_to_json(q) from quotes q
          where q.sample_id = ${samples.id} order by q.id desc limit 1)`,
    })
    .from(samples)
    .leftJoin(owner, eq(owner.id, samples.userId))
    .leftJoin(staff, eq(staff.id, samples.assignedStaffId))
    .where(eq(samples.id, sql.placeholder('id')))
    .limit(1)
    .prepare('samples_detail'),
}));

/** Everything the sample page shows: files, report elements, status history, owner, assigned staff. */
export async function findSampleDetail(db: Db, id: number) {
  const [head] = await prepared(db).detail.execute({ id });
  if (!head) return undefined;
  const user: PersonName | null = head.user;
  const assignedStaff: PersonName | null = head.assignedStaff?.id ? head.assignedStaff : null;
  return {
    sample: head.sample,
    user,
    assignedStaff,
    files: head.files,
    elements: head.elements,
    history: head.history,
    report: head.report,
    quote: head.quote ? fromDriverRow<QuoteRow>(quoteColumns, head.quote) : undefined,
  };
}
