import { and, asc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { PublicFaceElement, PublicReportFace } from '../../../common/contracts/reports';
import type { PersonName } from '../../../common/contracts/samples';
import type { Database, Db, DbOrTx } from '../../db/client';
import { decodeTimestampOrNull, type TextRow } from '../../db/text-rows';
import { reportPublicFaces, reportRevisions, users, verificationLog } from '../../db/schema';

export type VerifiedRow = {
  id: number;
  itemName: string;
  category: string;
  status: string;
  reportCode: string | null;
  /** The timestamps as the answers carry them: ISO 8601 in UTC with milliseconds. */
  submissionDate: string;
  reportGeneratedAt: string | null;
  lastUpdated: string;
  reportRevokedAt: string | null;
  reportRevokedReason: string | null;
  staffFirstName: string | null;
  staffLastName: string | null;
  /** The sample's report elements, as its public face keeps them (decision 0033). */
  elements: PublicFaceElement[] | null;
  current: {
    revision: number;
    issuedAt: string;
    /** What the answer shows of the revision's content (`report_public_faces`, decision 0033). */
    content: PublicReportFace | null;
    /** Who analysed and who approved a reviewed revision (docs/product/valuation-report.md); null otherwise. */
    review: { analyzedBy: PersonName | null; reviewedBy: PersonName | null; reviewedAt: string } | null;
  } | null;
};

/** A verified row with a current issued revision: a report verification can show. */
export type IssuedRow = VerifiedRow & { current: NonNullable<VerifiedRow['current']> };

export const isIssued = (row: VerifiedRow | undefined): row is IssuedRow => !!row?.current;

/**
 * Everything the public verification answer needs, in one round trip: the code's public face (the
 * sample's shown columns, its elements and its current revision's public content, kept by triggers:
 * `report_public_faces`, decision 0033) and the assigned analyst's name. A lookup among millions of
 * reports reads one index entry and one small row, not the sample, the revision's whole content and
 * the elements' index and rows. The query builder is exported so the
 * benchmark's minimal handler runs exactly the same SQL.
 */
export function verificationQuery(db: Db) {
  return db
    .select(verificationSelection())
    .from(reportPublicFaces)
    .leftJoin(users, eq(users.id, reportPublicFaces.assignedStaffId))
    .where(eq(reportPublicFaces.reportCode, sql.placeholder('code')))
    .limit(1);
}

/** The answer's columns, in the order the statement selects them (drizzle keeps the key order). */
function verificationSelection() {
  return {
    id: reportPublicFaces.sampleId,
    itemName: reportPublicFaces.itemName,
    category: reportPublicFaces.category,
    status: reportPublicFaces.status,
    reportCode: reportPublicFaces.reportCode,
    submissionDate: reportPublicFaces.submissionDate,
    reportGeneratedAt: reportPublicFaces.reportGeneratedAt,
    lastUpdated: reportPublicFaces.lastUpdated,
    reportRevokedAt: reportPublicFaces.reportRevokedAt,
    reportRevokedReason: reportPublicFaces.reportRevokedReason,
    staffFirstName: users.firstName,
    staffLastName: users.lastName,
    elements: sql<VerifiedRow['elements']>`${reportPublicFaces.elements}`,
    current: sql<
      VerifiedRow['current']
    >`json_build_object('revision', ${reportPublicFaces.revision}, 'issuedAt', ${reportPublicFaces.issuedAt}, 'content', ${reportPublicFaces.face}, 'review', case when ${reportPublicFaces.reviewedBy} is null then null else json_build_object('analyzedBy', (select json_build_object('firstName', a.first_name, 'lastName', a.last_name) from users a where a.id = ${reportPublicFaces.issuedBy}), 'reviewedBy', (select json_build_object('firstName', b.first_name, 'lastName', b.last_name) from users b where b.id = ${reportPublicFaces.reviewedBy}), 'reviewedAt', ${reportPublicFaces.reviewedAt}) end)`,
  } as const;
}

/** How each selected column's text becomes its value (the selection's types, column by column). */
const asText = (text: string | null) => text;
const asJson = (text: string | null) => (text === null ? null : (JSON.parse(text) as unknown));
const VERIFIED_ROW_DECODERS: { [K in keyof VerifiedRow]: (text: string | null) => unknown } = {
  id: Number,
  itemName: asText,
  category: asText,
  status: asText,
  reportCode: asText,
  submissionDate: decodeTimestampOrNull,
  reportGeneratedAt: decodeTimestampOrNull,
  lastUpdated: decodeTimestampOrNull,
  reportRevokedAt: decodeTimestampOrNull,
  reportRevokedReason: asText,
  staffFirstName: asText,
  staffLastName: asText,
  elements: asJson,
  current: asJson,
};

/**
 * The lookup of public verification: drizzle builds the statement once (the same SQL the benchmark's
 * minimal handler runs), then every request runs it as a named prepared statement straight on the
 * driver, receives the columns as text and decodes them here (`queryTextRows`). Unprepared, this
 * lookup spends most of its time in the planner; through drizzle's prepared query, its per-query
 * wrapping and row mapping, and then pg's own generic row handling, were the largest shares of the
 * app's extra cost over a bare handler (docs/benchmarks.md, "Report verification").
 */
export function prepareVerificationLookup(database: Database) {
  const { sql: text, params } = verificationQuery(database.db).toSQL();
  const codeAt = params.findIndex((p) => p !== null && typeof p === 'object');
  if (codeAt < 0) throw new Error('verification lookup: the code placeholder is missing');
  // The decoders in the statement's column order (drizzle keeps the selection's key order).
  const keys = Object.keys(verificationSelection()) as (keyof VerifiedRow)[];
  const decoders = keys.map((k) => VERIFIED_ROW_DECODERS[k]);
  const toVerifiedRow = (rows: TextRow[]): VerifiedRow | undefined => {
    const row = rows[0];
    if (!row) return undefined;
    const out: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++)
      out[keys[i] as string] = (decoders[i] as (t: string | null) => unknown)(row[i] ?? null);
    return out as VerifiedRow;
  };
  // A plain promise chain rather than an async function: one promise and one microtask less per lookup.
  return (code: string): Promise<VerifiedRow | undefined> => {
    const values = params.slice();
    values[codeAt] = code;
    return database.queryTextRows('verify_report_by_code', text, values).then(toVerifiedRow);
  };
}

export async function listRevisionsOf(db: DbOrTx, code: string) {
  return db
    .select({
      revision: reportRevisions.revision,
      sha256: reportRevisions.sha256,
      issuedAt: reportRevisions.issuedAt,
      content: reportRevisions.content,
    })
    .from(reportRevisions)
    .where(and(eq(reportRevisions.reportCode, code), eq(reportRevisions.state, 'issued')))
    .orderBy(asc(reportRevisions.revision));
}

/**
 * Who a revision's credential names (docs/product/signed-reports.md): its author and approver when it
 * was reviewed; otherwise its author, for the caller to fall back on when the sample has no analyst.
 */
export async function revisionSignOff(db: DbOrTx, code: string, revision: number) {
  const analyst = alias(users, 'analyst');
  const author = alias(users, 'author');
  const reviewer = alias(users, 'reviewer');
  const [row] = await db
    .select({
      reviewed: sql<boolean>`${reportRevisions.reviewedBy} is not null`,
      analyst: { firstName: analyst.firstName, lastName: analyst.lastName },
      author: { firstName: author.firstName, lastName: author.lastName },
      reviewer: { firstName: reviewer.firstName, lastName: reviewer.lastName },
    })
    .from(reportRevisions)
    .leftJoin(analyst, eq(analyst.id, reportRevisions.analyzedBy))
    .leftJoin(author, eq(author.id, reportRevisions.issuedBy))
    .leftJoin(reviewer, eq(reviewer.id, reportRevisions.reviewedBy))
    .where(
      and(
        eq(reportRevisions.reportCode, code),
        eq(reportRevisions.revision, revision),
        eq(reportRevisions.state, 'issued'),
      ),
    )
    .limit(1);
  return row;
}

export type VerificationLogEntry = typeof verificationLog.$inferInsert;

/**
 * One statement and one parameter for a whole batch: the rows travel as a JSON array, so a batch of
 * hundreds of verifications costs neither hundreds of bound parameters nor a new plan shape.
 */
export async function insertVerificationLog(db: DbOrTx, entries: VerificationLogEntry[]) {
  if (!entries.length) return;
  const rows = JSON.stringify(
    entries.map((e) => ({
      // Milliseconds since the epoch: no date text to write here or to parse in the database.
      at: (e.at ?? new Date()).getTime(),
      code: e.code,
      result: e.result,
      network: e.network ?? null,
      shareLinkId: e.shareLinkId ?? null,
    })),
  );
  await db.execute(
    sql`insert into verification_log (at, code, result, network, share_link_id)
        select to_timestamp(x.at / 1000.0), x.code, x.result, x.network, x."shareLinkId"
        from json_to_recordset(${rows}::json) as x(at double precision, code varchar(64), result varchar(50), network varchar(64), "shareLinkId" integer)`,
  );
}
