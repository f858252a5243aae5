// The audit trail's one way in (docs/product/audit-trail.md, docs/decisions/0022-audit-trail.md).
//
//   await deps.db.transaction(async (tx) => {
//     … the change …
//     await recordAudit(tx, { ...auditContext(request), action: 'sample.status_changed',
//       subject: { type: 'sample', id: sample.id }, before: { status: old }, after: { status: next } });
//   });
//
// Call it inside the transaction of the change, as its last statement: the event commits or rolls back
// with the change, and the chain's head row stays locked only from here to the commit. Every writer
// takes that lock, so events from several instances form one chain with no gaps and no fork.

import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { AuditAction, AuditSubjectType } from '../../common/domain/audit';
import { AUDIT_SYSTEM_ACTOR } from '../../common/domain/audit';
import type { Db, DbOrTx } from '../db/client';
import { networkPrefix } from '../plugins/client-address';
import { canonicalJson } from './canonical-json';
import { withoutSecrets } from './without-secrets';

/** The hash before the first event. */
export const GENESIS_HASH = '0'.repeat(64);

/** A JSON object of what changed: only the fields that matter, never a secret (they are stripped). */
export type AuditValues = Record<string, unknown>;

export type AuditEventInput = {
  /** Who acted: the signed-in account, or null for the system (or nobody known: a failed sign-in). */
  actor: { id: number; email: string } | null;
  /** Who acted, in words, when not the actor's e-mail or 'system' (a failed sign-in: the address typed). */
  actorLabel?: string;
  action: AuditAction;
  subject: { type: AuditSubjectType; id: string | number | null };
  /** The changed fields as they were (null: the thing did not exist). */
  before?: AuditValues | null;
  /** The changed fields as they are now (null: the thing is gone). */
  after?: AuditValues | null;
  /** The client's address (request.ip); only its network prefix (/24, /48) is kept. */
  ip?: string | null;
};

/** Who acts and from where: what a use case passes on from its request (`auditContext(request)`). */
export type AuditWho = Pick<AuditEventInput, 'actor' | 'ip'>;

/** An event as stored and as hashed. `at` is ISO 8601 UTC with milliseconds. */
export type AuditRecord = {
  id: number;
  at: string;
  actorId: number | null;
  actorLabel: string;
  action: string;
  subjectType: string;
  subjectId: string | null;
  before: unknown;
  after: unknown;
  network: string | null;
};

/** SHA-256 (hex) of the previous event's hash followed by this event's canonical JSON. */
export function auditHash(prevHash: string, record: AuditRecord): string {
  const body = canonicalJson({
    id: record.id,
    at: record.at,
    actorId: record.actorId,
    actorLabel: record.actorLabel,
    action: record.action,
    subjectType: record.subjectType,
    subjectId: record.subjectId,
    before: record.before ?? null,
    after: record.after ?? null,
    network: record.network,
  });
  return createHash('sha256').update(prevHash).update(body, 'utf8').digest('hex');
}

// What UTF-8 (and so the database) cannot hold: a surrogate without its pair becomes U+FFFD there.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * The JSON value that is stored and hashed: secrets removed, dates as ISO text, strings as the
 * database keeps them (no NUL, no lone surrogate), so reading the row back gives the same canonical text.
 */
export function auditValues(values: AuditValues | null | undefined): unknown {
  if (values === null || values === undefined) return null;
  return JSON.parse(canonicalJson(withoutSecrets(values)), (_key, v: unknown) =>
    typeof v === 'string' ? v.replaceAll('\u0000', '').replace(LONE_SURROGATE, '\uFFFD') : v,
  );
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** The ISO text PostgreSQL writes for a timestamptz, to the millisecond, in UTC. */
export const ISO_MS_FORMAT = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/**
 * The event's canonical JSON in three pieces around the two values only the database knows: its time
 * and its place. `head + JSON.stringify(at) + middle + String(id) + tail` is `canonicalJson` of the
 * whole record (the keys sorted: …, after, at, before, id, network, …), so the database can hash the
 * event in the statement that gives it its place.
 */
export function canonicalPieces(record: Omit<AuditRecord, 'id' | 'at'>): {
  head: string;
  middle: string;
  tail: string;
} {
  const w = canonicalJson;
  return {
    head:
      `{"action":${w(record.action)},"actorId":${w(record.actorId)},` +
      `"actorLabel":${w(record.actorLabel)},"after":${w(record.after ?? null)},"at":`,
    middle: `,"before":${w(record.before ?? null)},"id":`,
    tail: `,"network":${w(record.network)},"subjectId":${w(record.subjectId)},"subjectType":${w(record.subjectType)}}`,
  };
}

/**
 * Appends one event to the chain and answers its id and hash, in ONE statement: the UPDATE that moves
 * the head takes the next place, reads the time under the head's lock (re-read after waiting for
 * another writer) and hashes the event from the previous hash, the time, the place and the pieces
 * computed here (`canonicalPieces`); the same statement inserts the event from what the UPDATE
 * returns. The hash is the one `auditHash` computes from the stored row (the chain's check does).
 */
async function appendEvent(db: DbOrTx, input: AuditEventInput): Promise<{ id: number; hash: string }> {
  const event = {
    actorId: input.actor?.id ?? null,
    actorLabel: (input.actorLabel ?? input.actor?.email ?? AUDIT_SYSTEM_ACTOR).slice(0, 255),
    action: input.action,
    subjectType: input.subject.type,
    subjectId: input.subject.id === null ? null : String(input.subject.id).slice(0, 64),
    before: auditValues(input.before),
    after: auditValues(input.after),
    network: input.ip ? networkPrefix(input.ip) : null,
  };
  const { head, middle, tail } = canonicalPieces(event);
  const json = (v: unknown) => (v === null ? null : JSON.stringify(v));
  const [row] = rowsOf<{ id: string; hash: string }>(
    await db.execute(sql`
      with moved as (
        update audit_chain_head h
        set (seq, prev_hash, last_hash, last_at) = (
          select h.seq + 1, h.last_hash,
            encode(sha256(convert_to(h.last_hash || ${head} || '"' || t.at || '"' || ${middle} ||
              (h.seq + 1)::text || ${tail}, 'UTF8')), 'hex'),
            t.at
          from (select to_char(clock_timestamp() at time zone 'UTC', ${sql.raw(ISO_MS_FORMAT)}) as at) t)
        where h.id = 1
        returning h.seq, h.prev_hash, h.last_hash, h.last_at
      )
      insert into audit_events
        (id, at, actor_id, actor_label, action, subject_type, subject_id, before, after, network, prev_hash, hash)
      select moved.seq, moved.last_at::timestamptz, ${event.actorId}, ${event.actorLabel}, ${event.action},
        ${event.subjectType}, ${event.subjectId}, ${json(event.before)}::jsonb, ${json(event.after)}::jsonb,
        ${event.network}, moved.prev_hash, moved.last_hash
      from moved
      returning id::text as id, hash`),
  );
  if (!row) throw new Error('audit_chain_head has no row: the audit migration did not run');
  return { id: Number(row.id), hash: row.hash };
}

/**
 * Appends one event to the chain inside `tx` (the transaction of the change it records) and answers
 * its id and hash: one statement (`appendEvent`); the head's row stays locked until `tx` commits.
 */
export async function recordAudit(tx: DbOrTx, input: AuditEventInput): Promise<{ id: number; hash: string }> {
  // Outside a transaction the event would commit at once, whatever became of the change: refuse.
  if (!(tx instanceof PgTransaction))
    throw new Error('recordAudit must run inside the transaction of the change');
  return appendEvent(tx, input);
}

/**
 * An event that is the whole change (a sign-in, a failed sign-in): its one statement is its own
 * transaction, so no BEGIN and COMMIT round trips (docs/benchmarks.md, "Load").
 */
export function recordAuditAlone(db: Db, input: AuditEventInput): Promise<{ id: number; hash: string }> {
  return appendEvent(db, input);
}

/**
 * The fields whose value differs between two versions of a record, as the before and after of an
 * event (compared as canonical JSON, so a date and its ISO text are equal); null when nothing changed.
 */
export function changedFields(
  before: AuditValues,
  after: AuditValues,
): { before: AuditValues; after: AuditValues } | null {
  const b: AuditValues = {};
  const a: AuditValues = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const was = auditValues({ v: before[key] }) as { v?: unknown };
    const now = auditValues({ v: after[key] }) as { v?: unknown };
    if (canonicalJson(was.v ?? null) === canonicalJson(now.v ?? null)) continue;
    b[key] = before[key] ?? null;
    a[key] = after[key] ?? null;
  }
  return Object.keys(a).length ? { before: b, after: a } : null;
}
