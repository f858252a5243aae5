import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../../tests/support/test-app';
import type { Database } from '../db/client';
import { jobs } from '../db/schema';
import { createJobWorker, enqueueJob, exponentialBackoff, type JobWorker, listJobs, retryJob } from './jobs';

const quiet = { warn() {}, info() {} };

let database: Database;
let drop: () => Promise<void>;
beforeAll(async () => {
  ({ database, drop } = await freshDatabase());
});
afterAll(async () => {
  await database.close();
  await drop();
});

async function until(check: () => Promise<boolean>, ms = 10_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('timed out');
}

async function jobById(id: number) {
  const [row] = await database.db.select().from(jobs).where(eq(jobs.id, id));
  if (!row) throw new Error('no job');
  return row;
}

describe('background jobs', () => {
  it('a job enqueued in a rolled-back transaction never exists; a committed one runs once', async () => {
    const seen: string[] = [];
    const worker = createJobWorker({ db: database.db, log: quiet, pollMs: 50 });
    worker.registerJobHandler<{ word: string }>('t.once', async (p) => {
      seen.push(p.word);
    });
    await expect(
      database.db.transaction(async (tx) => {
        await enqueueJob(tx, { queue: 't.once', payload: { word: 'rolled back' } });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    const id = await database.db.transaction((tx) =>
      enqueueJob(tx, { queue: 't.once', payload: { word: 'committed' } }),
    );
    worker.start();
    await until(async () => (await jobById(id ?? 0)).state === 'done');
    await new Promise((r) => setTimeout(r, 200));
    await worker.stop();
    expect(seen).toEqual(['committed']);
    const row = await jobById(id ?? 0);
    expect(row.attempts).toBe(1);
    expect(row.finishedAt).not.toBeNull();
  });

  it('a failing job is retried with back-off, becomes failed after its last attempt, and can be retried', async () => {
    let calls = 0;
    let healthy = false;
    const worker = createJobWorker({ db: database.db, log: quiet, pollMs: 20, retryFirstMs: 20 });
    worker.registerJobHandler('t.flaky', async () => {
      calls += 1;
      if (!healthy) throw new Error(`down ${calls}`);
    });
    const id = (await enqueueJob(database.db, { queue: 't.flaky', payload: {}, maxAttempts: 3 })) ?? 0;
    worker.start();
    await until(async () => (await jobById(id)).state === 'failed');
    const failed = await jobById(id);
    expect(failed.attempts).toBe(3);
    expect(failed.lastError).toBe('down 3');
    expect((await listJobs(database.db, { queue: 't.flaky', state: 'failed' })).map((j) => j.id)).toEqual([
      id,
    ]);
    healthy = true;
    expect(await retryJob(database.db, id)).toBe(true);
    await until(async () => (await jobById(id)).state === 'done');
    await worker.stop();
    expect(calls).toBe(4);
    expect(await retryJob(database.db, id)).toBe(false);
  });

  it('dedupeKey keeps one job per key', async () => {
    const a = await enqueueJob(database.db, { queue: 't.dedupe', payload: {}, dedupeKey: 'k1' });
    const b = await enqueueJob(database.db, { queue: 't.dedupe', payload: {}, dedupeKey: 'k1' });
    expect(a).toBeGreaterThan(0);
    expect(b).toBeNull();
  });

  it('runAt in the future waits', async () => {
    const worker = createJobWorker({ db: database.db, log: quiet, pollMs: 20 });
    let ran = 0;
    worker.registerJobHandler('t.later', async () => {
      ran += 1;
    });
    await enqueueJob(database.db, { queue: 't.later', payload: {}, runAt: new Date(Date.now() + 60_000) });
    expect(await worker.runDue()).toBe(0);
    expect(ran).toBe(0);
  });

  it('several workers on one database run each job exactly once, never two at a time', async () => {
    const runs = new Map<number, number>();
    const workers: JobWorker[] = [];
    for (let i = 0; i < 3; i++) {
      const w = createJobWorker({ db: database.db, log: quiet, pollMs: 10 });
      w.registerJobHandler<{ n: number }>(
        't.many',
        async (p) => {
          runs.set(p.n, (runs.get(p.n) ?? 0) + 1);
          await new Promise((r) => setTimeout(r, 5));
        },
        { concurrency: 2 },
      );
      workers.push(w);
    }
    for (let n = 0; n < 40; n++) await enqueueJob(database.db, { queue: 't.many', payload: { n } });
    for (const w of workers) w.start();
    await until(async () => (await listJobs(database.db, { queue: 't.many', state: 'done' })).length === 40);
    await Promise.all(workers.map((w) => w.stop()));
    expect([...runs.values()].every((c) => c === 1)).toBe(true);
    expect(runs.size).toBe(40);
  });

  it('a job whose instance died (lease ran out) is taken over; a live lease is not', async () => {
    const [dead] = await database.db
      .insert(jobs)
      .values({
        queue: 't.takeover',
        payload: { which: 'dead' },
        maxAttempts: 5,
        state: 'running',
        attempts: 1,
        lockedBy: 'gone',
        lockedUntil: sql`now() - interval '1 second'`,
      })
      .returning();
    const [alive] = await database.db
      .insert(jobs)
      .values({
        queue: 't.takeover',
        payload: { which: 'alive' },
        maxAttempts: 5,
        state: 'running',
        attempts: 1,
        lockedBy: 'other',
        lockedUntil: sql`now() + interval '1 hour'`,
      })
      .returning();
    const seen: string[] = [];
    const worker = createJobWorker({ db: database.db, log: quiet });
    worker.registerJobHandler<{ which: string }>('t.takeover', async (p) => {
      seen.push(p.which);
    });
    await worker.runDue();
    expect(seen).toEqual(['dead']);
    expect((await jobById(dead?.id ?? 0)).state).toBe('done');
    expect((await jobById(dead?.id ?? 0)).attempts).toBe(2);
    expect((await jobById(alive?.id ?? 0)).state).toBe('running');
  });

  it('a long run keeps its lease renewed, so nobody takes it over', async () => {
    const a = createJobWorker({ db: database.db, log: quiet });
    const b = createJobWorker({ db: database.db, log: quiet });
    let runs = 0;
    const handler = async () => {
      runs += 1;
      await new Promise((r) => setTimeout(r, 1500));
    };
    a.registerJobHandler('t.lease', handler, { leaseMs: 600 });
    b.registerJobHandler('t.lease', handler, { leaseMs: 600 });
    await enqueueJob(database.db, { queue: 't.lease', payload: {} });
    const first = a.runDue();
    await new Promise((r) => setTimeout(r, 900));
    expect(await b.runDue()).toBe(0);
    await first;
    expect(runs).toBe(1);
  });

  it('a fair queue takes turns by key: a late key runs second, not after an earlier batch', async () => {
    const order: string[] = [];
    const worker = createJobWorker({ db: database.db, log: quiet });
    worker.registerJobHandler<{ name: string }>(
      't.fair',
      async (p) => {
        order.push(p.name);
      },
      { fair: true },
    );
    // Customer A queues a batch of five, then B one, then C two: B and C must not wait for all of A.
    for (let i = 1; i <= 5; i++)
      await enqueueJob(database.db, { queue: 't.fair', payload: { name: `a${i}` }, fairKey: 'A' });
    await enqueueJob(database.db, { queue: 't.fair', payload: { name: 'b1' }, fairKey: 'B' });
    for (let i = 1; i <= 2; i++)
      await enqueueJob(database.db, { queue: 't.fair', payload: { name: `c${i}` }, fairKey: 'C' });
    while ((await worker.runDue()) > 0);
    expect(order).toHaveLength(8);
    // Round robin: every key's next job before any key's one after it; within a key, oldest first.
    expect(order.slice(0, 3).sort()).toEqual(['a1', 'b1', 'c1']);
    expect(order.slice(3, 5).sort()).toEqual(['a2', 'c2']);
    expect(order.slice(5)).toEqual(['a3', 'a4', 'a5']);
    expect(order[0]).toBe('a1');
  });

  it('a fair queue counts each job without a key as a key of its own, and skips jobs not yet due', async () => {
    const order: string[] = [];
    const worker = createJobWorker({ db: database.db, log: quiet });
    worker.registerJobHandler<{ name: string }>(
      't.fair-nokey',
      async (p) => {
        order.push(p.name);
      },
      { fair: true },
    );
    const later = new Date(Date.now() + 3_600_000);
    await enqueueJob(database.db, { queue: 't.fair-nokey', payload: { name: 'a1' }, fairKey: 'A' });
    await enqueueJob(database.db, { queue: 't.fair-nokey', payload: { name: 'a2' }, fairKey: 'A' });
    await enqueueJob(database.db, { queue: 't.fair-nokey', payload: { name: 'n1' } });
    await enqueueJob(database.db, { queue: 't.fair-nokey', payload: { name: 'n2' } });
    await enqueueJob(database.db, {
      queue: 't.fair-nokey',
      payload: { name: 'z1' },
      fairKey: 'Z',
      runAt: later,
    });
    while ((await worker.runDue()) > 0);
    // a1, n1 and n2 are three keys never served; a2 waits its key's turn; z1 is not due yet.
    expect(order.slice(0, 3)).toEqual(['a1', 'n1', 'n2']);
    expect(order.slice(3)).toEqual(['a2']);
  });

  it('a queue not registered fair keeps first come, first served', async () => {
    const order: string[] = [];
    const worker = createJobWorker({ db: database.db, log: quiet });
    worker.registerJobHandler<{ name: string }>('t.fifo', async (p) => {
      order.push(p.name);
    });
    for (const [name, fairKey] of [
      ['a1', 'A'],
      ['a2', 'A'],
      ['b1', 'B'],
    ])
      await enqueueJob(database.db, { queue: 't.fifo', payload: { name }, fairKey });
    while ((await worker.runDue()) > 0);
    expect(order).toEqual(['a1', 'a2', 'b1']);
  });

  it('a queue that keeps waking the worker does not keep it from looking at the other queues', async () => {
    // A wake-up looks at its own queue only; every queue is still looked at once per poll interval,
    // even while one queue wakes the worker far more often than that (docs/benchmarks.md, load).
    const worker = createJobWorker({ db: database.db, log: quiet, pollMs: 200 });
    let busyRuns = 0;
    let stopBusy = false;
    worker.registerJobHandler('t.busy', async () => {
      busyRuns += 1;
      if (!stopBusy) await enqueueJob(database.db, { queue: 't.busy', payload: {} });
    });
    let quietRanAfter: number | null = null;
    worker.registerJobHandler('t.quiet', async () => {
      quietRanAfter = busyRuns;
    });
    worker.start();
    try {
      await enqueueJob(database.db, { queue: 't.busy', payload: {} });
      await until(async () => busyRuns >= 3);
      // A due job nobody announced, stored by a statement (as a submission stores its photos' jobs).
      await database.db.insert(jobs).values({ queue: 't.quiet', payload: {}, maxAttempts: 3 });
      const before = busyRuns;
      await until(async () => quietRanAfter !== null);
      // The busy queue kept waking the worker meanwhile, and the quiet job ran all the same.
      expect(quietRanAfter).toBeGreaterThan(before);
    } finally {
      stopBusy = true;
      await worker.stop();
    }
  });

  it('the default back-off keeps retrying for more than a day', () => {
    const backoff = exponentialBackoff(30_000);
    let total = 0;
    for (let attempt = 1; attempt < 25; attempt++) total += backoff(attempt);
    expect(total).toBeGreaterThan(24 * 60 * 60_000);
    expect(backoff(1)).toBe(30_000);
    expect(backoff(30)).toBe(2 * 60 * 60_000);
  });
});
