import { type NewOutboxRow, outboxCte } from '../../mail/mailer';
import { and, type Column, eq, getTableColumns, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { StoredReportContent } from '../../../common/contracts/reports';
import type { PersonName } from '../../../common/contracts/samples';
import type { Database, Db } from '../../db/client';
import {
  decodeTimestamp,
  decodeTimestampOrNull,
  runTextStatement,
  type TextRow,
  type TextStatement,
  textStatement,
} from '../../db/text-rows';
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
  database: Pick<Database, 'db' | 'queryTextRows'>,
  sample: NewSample,
  files: NewSampleFile[],
  /**
   * The receipt mail, rendered for the sample's id with the lab's settings (read with the id): stored
   * by the same statement (docs/product/mail.md).
   */
  receipt: (sampleId: number, lab: LabSettingsRow | null) => Promise<NewOutboxRow>,
  /** The customer's reservation for this submission, ended by the same statement. */
  reservationId?: number,
  /** The id and lab settings drawn already (`drawSampleId`, started while the upload was read); else drawn now. */
  drawn: Promise<DrawnSampleId> = drawSampleId(database),
): Promise<{ sample: SampleRow }> {
  const { id, lab } = await drawn;
  const mail = await receipt(id, lab);
  const columns: Record<string, unknown> = { ...sample, id, status: 'submitted' };
  const keys = Object.keys(columns).filter((k) => columns[k] !== undefined);
  const values: Record<string, unknown> = {
    files: JSON.stringify(
      files.map((f) => ({
        file_name: f.fileName,
        original_name: f.originalName,
        file_type: f.fileType,
        file_size: f.fileSize,
        file_category: f.fileCategory,
        upload_date: (f.uploadDate ?? new Date()).toISOString(),
      })),
    ),
    mailKind: mail.kind,
    mailTo: mail.toAddress,
    mailSubject: mail.subject,
    mailHtml: mail.html,
    mailText: mail.text,
    mailHeaders: JSON.stringify(mail.headers ?? {}),
    mailLogoKey: mail.logoKey ?? null,
    mailSealedTokens: mail.sealedTokens ?? null,
  };
  for (const key of keys) values[`sample_${key}`] = columns[key];
  if (reservationId) values.reservationId = reservationId;
  const [row] = await runTextStatement(
    database,
    submissionStatement(database.db, keys, reservationId !== undefined),
    values,
  );
  const json = row?.[0];
  if (!json) throw new Error('sample not inserted');
  return { sample: sampleFromDriverRow(JSON.parse(json) as Record<string, unknown>) };
}

export type DrawnSampleId = { id: number; lab: LabSettingsRow | null };

/**
 * The next sample's id and the lab's settings its receipt is rendered with, in one round trip. The
 * receipt names the display id, so the id is drawn before the sample is stored (a gap when the
 * submission then fails). The route starts it while the upload is still being read, so the round trip
 * is not one more step of the submission's wait (docs/benchmarks.md, "Load").
 */
export async function drawSampleId(database: Pick<Database, 'queryTextRows'>): Promise<DrawnSampleId> {
  const [row] = await runTextStatement(database, DRAW_SAMPLE_ID, {});
  const labJson = row?.[1];
  return {
    id: Number(row?.[0]),
    lab: labJson
      ? fromDriverRow<LabSettingsRow>(labColumns, JSON.parse(labJson) as Record<string, unknown>)
      : null,
  };
}

/** The next sample id and the lab's settings (as JSON), in one round trip. */
const DRAW_SAMPLE_ID = textStatement(
  'samples_draw_id',
  sql`select nextval(pg_get_serial_sequence('samples', 'id')) as id,
    (select row_to_json(l) from ${labSettings} l order by l.id limit 1) as lab`,
);

/**
 * The submission statement for one set of sample columns (the form always gives the same set) and with
 * or without a reservation to end: built by drizzle once, then run by name with this submission's
 * values. Built per call, it cost more server time than the rest of the submission's own work, and
 * PostgreSQL planned it anew every time (docs/benchmarks.md, "Load").
 */
const submissionStatements = new Map<string, TextStatement>();
function submissionStatement(db: Db, keys: string[], reserved: boolean): TextStatement {
  const shape = `${reserved ? 'reserved' : 'free'}:${keys.join(',')}`;
  const known = submissionStatements.get(shape);
  if (known) return known;
  const placeholders = Object.fromEntries(keys.map((k) => [k, sql.placeholder(`sample_${k}`)]));
  const insertSample = db
    .insert(samples)
    .values(placeholders as unknown as NewSample)
    .returning();
  const mail = {
    kind: sql.placeholder('mailKind'),
    toAddress: sql.placeholder('mailTo'),
    subject: sql.placeholder('mailSubject'),
    html: sql.placeholder('mailHtml'),
    text: sql.placeholder('mailText'),
    headers: sql.placeholder('mailHeaders'),
    logoKey: sql.placeholder('mailLogoKey'),
    sealedTokens: sql.placeholder('mailSealedTokens'),
  };
  const statement = textStatement(
    `samples_submit_${submissionStatements.size + 1}`,
    sql`
    with s as (${insertSample.getSQL()}),
    f as (
      insert into ${sampleFiles} (sample_id, file_name, original_name, file_type, file_size, file_category, upload_date, copies_state)
      select s.id, x.file_name, x.original_name, x.file_type, x.file_size, x.file_category, x.upload_date,
        case when x.file_category = 'photo' then 'pending' end
      from s cross join json_to_recordset(${sql.placeholder('files')}::json) as x(
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
    ), ${outboxCte(mail as unknown as NewOutboxRow)}${reserved ? sql`, ${endReservationCte(sql.placeholder('reservationId'))}` : sql``}
    select row_to_json(s)::text from s`,
  );
  submissionStatements.set(shape, statement);
  return statement;
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

/**
 * A row of the caller's own list, every column as the answer writes it (timestamps as ISO text); the
 * first photo as its id and copies' state, or null.
 */
export type OwnSampleRow = {
  id: number;
  itemName: string;
  category: string;
  status: string;
  urgencyLevel: string;
  submissionDate: string;
  lastUpdated: string;
  reportGenerated: boolean;
  reportCode: string | null;
  reportRevokedAt: string | null;
  expertValuation: boolean;
  authenticityCheck: boolean;
  conditionAssessment: boolean;
  provenanceResearch: boolean;
  quoteStatus: string | null;
  revalueBy: string | null;
  quoteValidUntil: string | null;
  quoteAcceptedAt: string | null;
  custodyState: string;
  custodyLocationId: number | null;
  custodyLocationName: string | null;
  custodySince: string | null;
  collectionId: number | null;
  firstPhoto: FirstPhoto;
};

/**
 * The own list's statement: the columns in the order `ownSampleOf` reads them, the first photo by a
 * lateral join (one index probe per row, no JSON to build or parse). The timestamps come as
 * PostgreSQL's text and are rewritten here (`to_char` for five columns of every row cost the
 * database more than the rewrite costs the server: docs/benchmarks.md, "Load").
 */
const ownListStatement = preparedStatements(() =>
  textStatement(
    'samples_own_list',
    sql`select ${samples.id}, ${samples.itemName}, ${samples.category}, ${samples.status},
        ${samples.urgencyLevel}, ${samples.submissionDate}, ${samples.lastUpdated},
        ${samples.reportGenerated}, ${samples.reportCode}, ${samples.reportRevokedAt},
        ${samples.expertValuation}, ${samples.authenticityCheck}, ${samples.conditionAssessment},
        ${samples.provenanceResearch}, ${samples.quoteStatus}, ${samples.revalueBy}, ${samples.quoteValidUntil},
        ${samples.quoteAcceptedAt}, ${samples.custodyState}, ${samples.custodyLocationId},
        ${samples.custodyLocationName}, ${samples.custodySince}, ${samples.collectionId},
        first_photo.id, first_photo.copies_state
      from ${samples}
      left join lateral (
        select f.id, f.copies_state from ${sampleFiles} f
        where f.sample_id = ${samples.id} and f.file_category = 'photo' order by f.id limit 1
      ) first_photo on true
      where ${samples.userId} = ${sql.placeholder('userId')}
      order by ${samples.id} desc`,
  ),
);

/** One text row of the own list's statement, as a row of one shape (hundreds per estate's list). */
function ownSampleOf(r: TextRow): OwnSampleRow {
  return {
    id: Number(r[0]),
    itemName: r[1] ?? '',
    category: r[2] ?? '',
    status: r[3] ?? '',
    urgencyLevel: r[4] ?? '',
    submissionDate: decodeTimestamp(r[5] ?? ''),
    lastUpdated: decodeTimestamp(r[6] ?? ''),
    reportGenerated: r[7] === 't',
    reportCode: r[8] ?? null,
    reportRevokedAt: decodeTimestampOrNull(r[9] ?? null),
    expertValuation: r[10] === 't',
    authenticityCheck: r[11] === 't',
    conditionAssessment: r[12] === 't',
    provenanceResearch: r[13] === 't',
    quoteStatus: r[14] ?? null,
    revalueBy: r[15] ?? null,
    quoteValidUntil: r[16] ?? null,
    quoteAcceptedAt: decodeTimestampOrNull(r[17] ?? null),
    custodyState: r[18] ?? '',
    custodyLocationId: r[19] == null ? null : Number(r[19]),
    custodyLocationName: r[20] ?? null,
    custodySince: decodeTimestampOrNull(r[21] ?? null),
    collectionId: r[22] == null ? null : Number(r[22]),
    firstPhoto: r[23] == null ? null : { id: Number(r[23]), copiesState: r[24] ?? null },
  };
}

/**
 * The caller's own samples, newest first: a named statement read as text rows (every dashboard load
 * runs it, and an estate's list is hundreds of rows: no Date is made for a timestamp that leaves as
 * text, and each row is one object of one shape).
 */
export async function listOwnSamples(database: Database, userId: number): Promise<OwnSampleRow[]> {
  const rows = await runTextStatement(database, ownListStatement(database.db), { userId });
  return rows.map(ownSampleOf);
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
