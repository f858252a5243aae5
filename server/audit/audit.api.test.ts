import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freshDatabase } from '../../tests/support/test-app';
import type { Database } from '../db/client';
import { auditChainHead, auditEvents } from '../db/schema';
import { GENESIS_HASH, recordAudit, recordAuditAlone } from './audit';
import { verifyAuditChain } from './verify-chain';

// The audit trail's core on the database (both PGlite and PostgreSQL): the chain, the append-only
// triggers, the transaction rule, and what verify says about a row changed behind the app's back.

let database: Database;
let drop: () => Promise<void>;
beforeAll(async () => {
  ({ database, drop } = await freshDatabase());
});
afterAll(async () => {
  await database.close();
  await drop();
});

/** The database's own words for a refused statement (drizzle wraps the driver's error). */
async function refusal(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (err) {
    const e = err as { message?: string; cause?: { message?: string } };
    return `${e.message ?? ''} ${e.cause?.message ?? ''}`;
  }
  throw new Error('the statement was not refused');
}

const event = (n: number) =>
  ({
    actor: { id: 1, email: 'admin@lab.test' },
    action: 'sample.status_changed',
    subject: { type: 'sample', id: n },
    before: { status: 'submitted' },
    after: { status: 'in-progress', n },
    ip: '203.0.113.77',
  }) as const;

const allEvents = () => database.db.select().from(auditEvents).orderBy(auditEvents.id);

/** Runs `fn` with the append-only triggers off, as a superuser could (the test harness is one). */
async function behindTheAppsBack(fn: () => Promise<unknown>) {
  await database.db.execute(sql`alter table audit_events disable trigger user`);
  try {
    await fn();
  } finally {
    await database.db.execute(sql`alter table audit_events enable trigger user`);
  }
}

describe('audit chain', () => {
  // The tests below that break the chain on purpose restore it, so each starts from a valid one.
  beforeEach(async () => {
    expect((await verifyAuditChain(database.db)).valid).toBe(true);
  });

  it('starts empty and valid', async () => {
    expect(await verifyAuditChain(database.db)).toEqual({ valid: true, events: 0, headHash: GENESIS_HASH });
  });

  it('chains each event to the one before, with gapless ids, the network prefix and no secrets', async () => {
    const first = await database.db.transaction((tx) => recordAudit(tx, event(1)));
    const second = await database.db.transaction((tx) =>
      recordAudit(tx, {
        ...event(2),
        before: { role: 'user', passwordHash: 'scrypt$x' },
        ip: '2001:db8:1:2::5',
      }),
    );
    const third = await recordAuditAlone(database.db, { ...event(3), actor: null });
    expect([first.id, second.id, third.id]).toEqual([1, 2, 3]);
    const rows = await allEvents();
    expect(rows.map((r) => r.prevHash)).toEqual([GENESIS_HASH, first.hash, second.hash]);
    expect(rows.map((r) => r.hash)).toEqual([first.hash, second.hash, third.hash]);
    expect(rows[0]).toMatchObject({
      actorId: 1,
      actorLabel: 'admin@lab.test',
      action: 'sample.status_changed',
      subjectType: 'sample',
      subjectId: '1',
      before: { status: 'submitted' },
      after: { status: 'in-progress', n: 1 },
      network: '203.0.113.0/24',
    });
    expect(rows[1]?.before).toEqual({ role: 'user' });
    expect(rows[1]?.network).toBe('2001:db8:1::/48');
    expect(rows[2]).toMatchObject({ actorId: null, actorLabel: 'system' });
    const [head] = await database.db.select().from(auditChainHead);
    // The head also keeps what its last move returned: the hash before the last event and its time.
    expect(head).toEqual({
      id: 1,
      seq: 3,
      lastHash: third.hash,
      prevHash: second.hash,
      lastAt: rows[2]?.at.toISOString(),
    });
    expect(await verifyAuditChain(database.db)).toEqual({ valid: true, events: 3, headHash: third.hash });
  });

  it('refuses UPDATE, DELETE and TRUNCATE of events in the database itself', async () => {
    await recordAuditAlone(database.db, event(4));
    const before = await allEvents();
    expect(await refusal(() => database.db.update(auditEvents).set({ actorLabel: 'someone else' }))).toMatch(
      /append-only: UPDATE refused/,
    );
    expect(
      await refusal(() => database.db.execute(sql`update audit_events set after = '{}'::jsonb where id = 1`)),
    ).toMatch(/append-only: UPDATE refused/);
    expect(await refusal(() => database.db.delete(auditEvents))).toMatch(/append-only: DELETE refused/);
    expect(await refusal(() => database.db.execute(sql`truncate audit_events`))).toMatch(
      /append-only: TRUNCATE refused/,
    );
    expect(await refusal(() => database.db.delete(auditChainHead))).toMatch(/cannot be removed/);
    expect(await allEvents()).toEqual(before);
  });

  it('a rolled-back change leaves no event, and the next event takes its place', async () => {
    const count = (await allEvents()).length;
    const failed = database.db.transaction(async (tx) => {
      await recordAudit(tx, event(99));
      throw new Error('the change failed');
    });
    await expect(failed).rejects.toThrow('the change failed');
    expect(await allEvents()).toHaveLength(count);
    const next = await recordAuditAlone(database.db, event(5));
    expect(next.id).toBe(count + 1);
    expect((await allEvents()).some((r) => r.subjectId === '99')).toBe(false);
  });

  it('writers at the same time form one chain (the head row serialises them), its times in its order', async () => {
    const startId = (await allEvents()).length;
    // Half in a change's transaction (holding the head until a later commit), half on their own.
    const ids = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        i % 2
          ? recordAuditAlone(database.db, event(100 + i))
          : database.db.transaction(async (tx) => {
              const appended = await recordAudit(tx, event(100 + i));
              await new Promise((r) => setTimeout(r, 5));
              return appended;
            }),
      ),
    );
    expect(ids.map((r) => r.id).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 12 }, (_, i) => startId + 1 + i),
    );
    const result = await verifyAuditChain(database.db, { batchSize: 5 });
    expect(result).toMatchObject({ valid: true, events: startId + 12 });
    // Each time is read under the head's lock, after any wait for the writer before: never earlier.
    const times = (await allEvents()).map((r) => r.at.getTime());
    for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThanOrEqual(times[i - 1] ?? 0);
  });

  it('verify names an event edited behind the app’s back, and the chain is valid again once it is restored', async () => {
    const rows = await allEvents();
    const target = rows[2];
    if (!target) throw new Error('no event 3');
    await behindTheAppsBack(() =>
      database.db.execute(
        sql`update audit_events set after = '{"status":"completed"}'::jsonb where id = ${target.id}`,
      ),
    );
    const result = await verifyAuditChain(database.db, { batchSize: 2 });
    expect(result).toMatchObject({ valid: false, events: rows.length, firstBrokenId: target.id });
    expect(result.problem).toBe(`Event ${target.id} was changed after it was written.`);
    // Recomputing the edited event's hash does not hide it: the next event no longer follows it.
    await behindTheAppsBack(() =>
      database.db.execute(
        sql`update audit_events set after = ${JSON.stringify(target.after)}::jsonb where id = ${target.id}`,
      ),
    );
    expect((await verifyAuditChain(database.db)).valid).toBe(true);
  });

  it('verify names where events were deleted behind the app’s back (in the middle and at the end)', async () => {
    const rows = await allEvents();
    const middle = rows[3];
    const last = rows[rows.length - 1];
    if (!middle || !last) throw new Error('too few events');
    await behindTheAppsBack(() => database.db.execute(sql`delete from audit_events where id = ${middle.id}`));
    try {
      expect(await verifyAuditChain(database.db, { batchSize: 3 })).toMatchObject({
        valid: false,
        firstBrokenId: middle.id + 1,
        problem: `Event ${middle.id} is missing.`,
        events: rows.length - 1,
      });
    } finally {
      await behindTheAppsBack(() => database.db.insert(auditEvents).values(middle));
    }
    await behindTheAppsBack(() => database.db.execute(sql`delete from audit_events where id = ${last.id}`));
    try {
      expect(await verifyAuditChain(database.db)).toMatchObject({
        valid: false,
        firstBrokenId: last.id,
        problem: `Event ${last.id} is missing.`,
      });
    } finally {
      await behindTheAppsBack(() => database.db.insert(auditEvents).values(last));
    }
  });
});

describe('recordAudit outside a transaction', () => {
  it('is refused, so the chain cannot fork', async () => {
    await expect(recordAudit(database.db, event(1))).rejects.toThrow(/inside the transaction/);
  });
});
