// Walks the audit chain from its first event to the head, in batches of ids (never the whole log in
// memory), and recomputes every hash (docs/product/audit-trail.md). Used by GET /api/admin/audit/verify
// and `npm run audit:verify`.

import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { type AuditRecord, GENESIS_HASH, ISO_MS_FORMAT, auditHash } from './audit';

export type ChainVerification = {
  valid: boolean;
  /** How many events the chain holds (up to the head read when the check began). */
  events: number;
  /** The first event that does not check out: changed, out of place, or following missing ones. */
  firstBrokenId?: number;
  /** What is wrong there, in words. */
  problem?: string;
  /** The head's hash: keep it elsewhere, and a later check shows whether the chain up to it was rewritten. */
  headHash: string;
};

type ChainRow = {
  id: string | number;
  at: string;
  actor_id: number | null;
  actor_label: string;
  action: string;
  subject_type: string;
  subject_id: string | null;
  before: unknown;
  after: unknown;
  network: string | null;
  prev_hash: string;
  hash: string;
};

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

const DEFAULT_BATCH = 1000;

export async function verifyAuditChain(
  db: DbOrTx,
  opts: { batchSize?: number } = {},
): Promise<ChainVerification> {
  const batchSize = opts.batchSize ?? DEFAULT_BATCH;
  const [head] = rowsOf<{ seq: string; last_hash: string }>(
    await db.execute(sql`select seq::text as seq, last_hash from audit_chain_head where id = 1`),
  );
  if (!head)
    return { valid: false, events: 0, problem: 'The chain has no head row.', headHash: GENESIS_HASH };
  const headSeq = Number(head.seq);
  const broken = async (firstBrokenId: number, problem: string): Promise<ChainVerification> => {
    const [counted] = rowsOf<{ n: string | number }>(
      await db.execute(sql`select count(*)::int as n from audit_events where id <= ${headSeq}`),
    );
    return {
      valid: false,
      events: Number(counted?.n ?? 0),
      firstBrokenId,
      problem,
      headHash: head.last_hash,
    };
  };

  let lastId = 0;
  let prevHash = GENESIS_HASH;
  for (;;) {
    const rows = rowsOf<ChainRow>(
      await db.execute(sql`
        select audit_events.id::text as id, to_char(at at time zone 'UTC', ${sql.raw(ISO_MS_FORMAT)}) as at, actor_id,
          actor_label, action, subject_type, subject_id, before, after, network, prev_hash, hash
        from audit_events where audit_events.id > ${lastId} and audit_events.id <= ${headSeq}
        order by audit_events.id limit ${batchSize}`),
    );
    for (const row of rows) {
      const id = Number(row.id);
      if (id !== lastId + 1)
        return broken(
          id,
          id === lastId + 2
            ? `Event ${lastId + 1} is missing.`
            : `Events ${lastId + 1}–${id - 1} are missing.`,
        );
      if (row.prev_hash !== prevHash) return broken(id, `Event ${id} does not follow event ${lastId}.`);
      const record: AuditRecord = {
        id,
        at: row.at,
        actorId: row.actor_id === null ? null : Number(row.actor_id),
        actorLabel: row.actor_label,
        action: row.action,
        subjectType: row.subject_type,
        subjectId: row.subject_id,
        before: row.before,
        after: row.after,
        network: row.network,
      };
      if (auditHash(row.prev_hash, record) !== row.hash)
        return broken(id, `Event ${id} was changed after it was written.`);
      lastId = id;
      prevHash = row.hash;
    }
    if (rows.length < batchSize) break;
  }
  if (lastId < headSeq)
    return broken(
      lastId + 1,
      lastId + 1 === headSeq
        ? `Event ${headSeq} is missing.`
        : `Events ${lastId + 1}–${headSeq} are missing.`,
    );
  if (prevHash !== head.last_hash) return broken(lastId, `Event ${lastId} does not match the chain's head.`);
  return { valid: true, events: lastId, headHash: head.last_hash };
}
