import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { and, asc, desc, eq, inArray, lt, lte, or, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client';
import { jobs } from '../db/schema';

// One durable background-job queue for the whole product, on the database it already has
// (PGlite or PostgreSQL). docs/architecture.md ("Background jobs") is the user's guide;
// docs/decisions/0009-mail-and-background-jobs.md says why it is built this way.

export type JobState = 'pending' | 'running' | 'done' | 'failed';
export type JobRow = typeof jobs.$inferSelect;

/** Enough attempts to keep retrying for more than 24 hours with the default back-off. */
export const DEFAULT_MAX_ATTEMPTS = 25;
const MAX_ERROR_LENGTH = 2000;
const DONE_KEPT_MS = 7 * 24 * 60 * 60_000;

const enqueued = new EventEmitter();
enqueued.setMaxListeners(0);

export type NewJob<P> = {
  queue: string;
  payload: P;
  /** Not before this time (default: now). */
  runAt?: Date;
  /** At most one job per (queue, dedupeKey), ever: a second enqueue with the same key does nothing. */
  dedupeKey?: string;
  maxAttempts?: number;
  /** In a queue registered `fair`, jobs with different keys take turns (one key: one customer). */
  fairKey?: string;
};

/**
 * Queues a job. Pass the caller's transaction: the job exists exactly when that transaction
 * commits (a rolled-back change leaves no job). Answers the job's id, or null when `dedupeKey`
 * already had one.
 */
export async function enqueueJob<P>(db: DbOrTx, job: NewJob<P>): Promise<number | null> {
  const [row] = await db
    .insert(jobs)
    .values({
      queue: job.queue,
      payload: job.payload,
      runAt: job.runAt ?? sql`now()`,
      dedupeKey: job.dedupeKey ?? null,
      maxAttempts: job.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      fairKey: job.fairKey ?? null,
    })
    .onConflictDoNothing()
    .returning({ id: jobs.id });
  // Workers in this process look soon after; the transaction may not have committed yet, in which
  // case their regular poll finds the job.
  setTimeout(() => enqueued.emit('job', job.queue), 30).unref();
  return row?.id ?? null;
}

/** A failed (or pending) job runs again now, with a fresh count of attempts. */
export async function retryJob(db: DbOrTx, id: number): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({
      state: 'pending',
      attempts: 0,
      runAt: sql`now()`,
      lockedUntil: null,
      lockedBy: null,
      updatedAt: sql`now()`,
    })
    .where(and(eq(jobs.id, id), inArray(jobs.state, ['failed', 'pending'])))
    .returning({ id: jobs.id });
  if (rows.length) setTimeout(() => enqueued.emit('job', '*'), 30).unref();
  return rows.length > 0;
}

/** The newest jobs of a queue (or of every queue), for admin views and tests. */
export function listJobs(db: DbOrTx, filter: { queue?: string; state?: JobState; limit?: number } = {}) {
  return db
    .select()
    .from(jobs)
    .where(
      and(
        filter.queue ? eq(jobs.queue, filter.queue) : undefined,
        filter.state ? eq(jobs.state, filter.state) : undefined,
      ),
    )
    .orderBy(desc(jobs.id))
    .limit(filter.limit ?? 100);
}

export type JobContext = {
  jobId: number;
  /** 1 for the first run. */
  attempt: number;
  maxAttempts: number;
  /** When this run fails, the job becomes `failed` instead of being retried. */
  isFinalAttempt: boolean;
  db: Db;
};

export type JobHandler<P> = (payload: P, ctx: JobContext) => Promise<void>;

export type HandlerOptions = {
  /** Milliseconds to wait before attempt `attempt + 1` after `attempt` failed. */
  backoff?: (attempt: number) => number;
  /**
   * How long one run may hold the job before another instance may take it over. The worker renews
   * the lease every third of it while the handler runs, so only a dead instance loses its job.
   */
  leaseMs?: number;
  /** Jobs of this queue run at once in this process (default 1). */
  concurrency?: number;
  /**
   * Take turns by `fairKey` instead of first come, first served: each claim takes the oldest due job
   * of the key served least recently, so one key's long batch never holds the others back.
   */
  fair?: boolean;
};

/** Doubling from `firstMs`, at most two hours apart: 25 attempts span more than a day. */
export function exponentialBackoff(firstMs: number, capMs = 2 * 60 * 60_000) {
  return (attempt: number) => Math.min(capMs, firstMs * 2 ** Math.max(0, attempt - 1));
}

type Registered = {
  handler: JobHandler<unknown>;
  backoff: (attempt: number) => number;
  leaseMs: number;
  concurrency: number;
  fair: boolean;
  running: number;
};

export type JobWorker = {
  /** Runs `handler` for every job of `queue`. Register before `start()`. */
  registerJobHandler<P>(queue: string, handler: JobHandler<P>, opts?: HandlerOptions): void;
  start(): void;
  /** Stops claiming and waits for the jobs in flight (at most `graceMs`). */
  stop(graceMs?: number): Promise<void>;
  /** Claims and runs what is due now; answers how many jobs ran (tests, admin "retry"). */
  runDue(): Promise<number>;
  readonly workerId: string;
};

type Log = {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
};

export function createJobWorker(opts: {
  db: Db;
  log: Log;
  pollMs?: number;
  /** Default first retry delay; each later one doubles (up to 2 h). */
  retryFirstMs?: number;
  /** The longest wait between two attempts (2 h). */
  retryMaxMs?: number;
  /** Default lease of a running job (60 s): after it, a dead instance's job is taken over. */
  leaseMs?: number;
}): JobWorker {
  const { db, log } = opts;
  const pollMs = opts.pollMs ?? 1000;
  const defaultBackoff = exponentialBackoff(opts.retryFirstMs ?? 30_000, opts.retryMaxMs);
  const workerId = `${process.pid}-${randomBytes(6).toString('hex')}`;
  const handlers = new Map<string, Registered>();
  const inFlight = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | null = null;
  let stopping = false;
  let started = false;
  let polling: Promise<number> | null = null;
  let pollAgain = false;
  let lastCleanup = 0;
  // A wake-up (a job enqueued here, a run finished) looks only at its own queue; every queue is
  // looked at on the regular poll, and at least every pollMs however often wake-ups come. A busy
  // queue (a photo's copies per submission) then costs one claim per job, not one per queue.
  const woken = new Set<string>();
  let wakeAll = true;
  let lastFull = 0;

  const isDue = () =>
    or(
      and(eq(jobs.state, 'pending'), lte(jobs.runAt, sql`now()`)),
      // A run whose lease ran out: its instance died. Take it over.
      and(eq(jobs.state, 'running'), lt(jobs.lockedUntil, sql`now()`)),
    );

  /**
   * The ids of a fair queue's next jobs: each key's oldest due job, keys whose jobs were touched
   * least recently (never first) ahead. Jobs without a key count as keys of their own.
   * The waiting keys are walked one index step each (a recursive skip over jobs_pending_fair_idx),
   * each key's oldest pending job is one more step, and when a key was last served is one step back
   * through jobs_served_fair_idx (partial: jobs no longer pending, so a key's waiting jobs are not
   * stepped over): the claim's cost follows the keys waiting, not the backlog or the week of
   * finished jobs the queue keeps (docs/benchmarks.md, "Load"). A run whose lease ran out is a
   * candidate of its own key as well.
   */
  function fairCandidates(queue: string, limit: number) {
    // In parentheses: it is the subquery of the locking select's `id in (…)`.
    return sql`(
      with recursive waiting(key) as (
        (select j.fair_key from ${jobs} j
          where j.queue = ${queue} and j.state = 'pending' and j.fair_key is not null
          order by j.fair_key limit 1)
        union all
        select (select j.fair_key from ${jobs} j
          where j.queue = ${queue} and j.state = 'pending' and j.fair_key > waiting.key
          order by j.fair_key limit 1)
        from waiting where waiting.key is not null
      ),
      due as (
        select first.id, first.run_at, waiting.key from waiting
        cross join lateral (
          select j.id, j.run_at from ${jobs} j
          where j.queue = ${queue} and j.state = 'pending' and j.fair_key = waiting.key and j.run_at <= now()
          order by j.run_at, j.id limit 1
        ) first
        where waiting.key is not null
        union all
        (select j.id, j.run_at, '#' || j.id::text from ${jobs} j
          where j.queue = ${queue} and j.state = 'pending' and j.fair_key is null and j.run_at <= now()
          order by j.run_at, j.id limit ${limit})
        union all
        select j.id, j.run_at, coalesce(j.fair_key, '#' || j.id::text) from ${jobs} j
          where j.queue = ${queue} and j.state = 'running' and j.locked_until < now()
      )
      select due.id from due
      order by (select max(served.updated_at) from ${jobs} served
          where served.queue = ${queue} and served.fair_key = due.key and served.state <> 'pending') asc nulls first,
        due.run_at, due.id
      limit ${limit})`;
  }

  async function claim(queue: string, reg: Registered, limit: number): Promise<JobRow[]> {
    // A fair queue picks its candidates in a subquery (a window function cannot lock rows), and the
    // same statement locks those still due; one another instance took meanwhile is skipped and the
    // next poll picks again.
    const chosen = reg.fair ? fairCandidates(queue, limit) : null;
    const due = db
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.queue, queue), isDue(), chosen ? inArray(jobs.id, chosen) : undefined))
      .orderBy(asc(jobs.runAt), asc(jobs.id))
      .limit(limit)
      .for('update', { skipLocked: true });
    return db
      .update(jobs)
      .set({
        state: 'running',
        attempts: sql`${jobs.attempts} + 1`,
        lockedBy: workerId,
        lockedUntil: sql`now() + make_interval(secs => ${reg.leaseMs / 1000})`,
        updatedAt: sql`now()`,
      })
      .where(inArray(jobs.id, due))
      .returning();
  }

  async function finish(job: JobRow, reg: Registered, error: unknown) {
    const mine = and(eq(jobs.id, job.id), eq(jobs.lockedBy, workerId), eq(jobs.state, 'running'));
    if (error === undefined) {
      await db
        .update(jobs)
        .set({ state: 'done', lockedUntil: null, finishedAt: sql`now()`, updatedAt: sql`now()` })
        .where(mine);
      return;
    }
    const message = (error instanceof Error ? error.message : String(error)).slice(0, MAX_ERROR_LENGTH);
    const final = job.attempts >= job.maxAttempts;
    await db
      .update(jobs)
      .set(
        final
          ? {
              state: 'failed',
              lastError: message,
              lockedUntil: null,
              finishedAt: sql`now()`,
              updatedAt: sql`now()`,
            }
          : {
              state: 'pending',
              lastError: message,
              lockedUntil: null,
              lockedBy: null,
              runAt: new Date(Date.now() + reg.backoff(job.attempts)),
              updatedAt: sql`now()`,
            },
      )
      .where(mine);
    log.warn({ queue: job.queue, jobId: job.id, attempt: job.attempts, final }, 'job failed');
  }

  function run(job: JobRow, reg: Registered): Promise<void> {
    reg.running += 1;
    const renew = setInterval(
      () => {
        void db
          .update(jobs)
          .set({ lockedUntil: sql`now() + make_interval(secs => ${reg.leaseMs / 1000})` })
          .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, workerId), eq(jobs.state, 'running')))
          .catch(() => {});
      },
      Math.max(50, reg.leaseMs / 3),
    );
    renew.unref();
    const ctx: JobContext = {
      jobId: job.id,
      attempt: job.attempts,
      maxAttempts: job.maxAttempts,
      isFinalAttempt: job.attempts >= job.maxAttempts,
      db,
    };
    const p = (async () => {
      let error: unknown;
      try {
        await reg.handler(job.payload, ctx);
      } catch (err) {
        error = err ?? new Error('job failed');
      } finally {
        clearInterval(renew);
      }
      try {
        await finish(job, reg, error);
      } catch (err) {
        // The lease runs out and another run retries it.
        log.warn({ jobId: job.id, err: (err as Error).message }, 'could not record a job result');
      }
    })().finally(() => {
      reg.running -= 1;
      inFlight.delete(p);
      woken.add(job.queue);
      if (!stopping) schedule(0);
    });
    inFlight.add(p);
    return p;
  }

  async function cleanup() {
    if (Date.now() - lastCleanup < 60 * 60_000) return;
    lastCleanup = Date.now();
    await db
      .delete(jobs)
      .where(and(eq(jobs.state, 'done'), lt(jobs.finishedAt, new Date(Date.now() - DONE_KEPT_MS))));
  }

  async function pollOnce(): Promise<number> {
    let started = 0;
    const full = wakeAll || Date.now() - lastFull >= pollMs;
    const queues = full ? [...handlers.keys()] : [...woken];
    woken.clear();
    if (full) {
      wakeAll = false;
      lastFull = Date.now();
    }
    for (const queue of queues) {
      const reg = handlers.get(queue);
      if (!reg) continue;
      const free = reg.concurrency - reg.running;
      if (free <= 0 || stopping) continue;
      const claimed = await claim(queue, reg, free);
      for (const job of claimed) {
        started += 1;
        void run(job, reg);
      }
    }
    await cleanup().catch(() => {});
    return started;
  }

  function poll(): Promise<number> {
    if (polling) {
      pollAgain = true;
      return polling;
    }
    polling = pollOnce()
      .catch((err: Error) => {
        log.warn({ err: err.message }, 'job poll failed; will retry');
        return 0;
      })
      .finally(() => {
        polling = null;
        if (pollAgain && !stopping) {
          pollAgain = false;
          schedule(0);
        }
      });
    return polling;
  }

  function schedule(delay: number) {
    if (stopping || !started) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      void poll().finally(() => {
        if (!timer) schedule(pollMs);
      });
    }, delay);
    timer.unref();
  }

  const onEnqueued = (queue: string) => {
    if (queue === '*') wakeAll = true;
    else if (handlers.has(queue)) woken.add(queue);
    else return;
    schedule(0);
  };

  return {
    workerId,
    registerJobHandler(queue, handler, hopts = {}) {
      handlers.set(queue, {
        handler: handler as JobHandler<unknown>,
        backoff: hopts.backoff ?? defaultBackoff,
        leaseMs: hopts.leaseMs ?? opts.leaseMs ?? 60_000,
        concurrency: hopts.concurrency ?? 1,
        fair: hopts.fair ?? false,
        running: 0,
      });
    },
    start() {
      if (started) return;
      started = true;
      stopping = false;
      enqueued.on('job', onEnqueued);
      schedule(0);
    },
    async stop(graceMs = 10_000) {
      stopping = true;
      started = false;
      enqueued.off('job', onEnqueued);
      if (timer) clearTimeout(timer);
      timer = null;
      if (polling) await polling;
      const all = Promise.allSettled([...inFlight]);
      await Promise.race([all, new Promise((r) => setTimeout(r, graceMs).unref())]);
    },
    async runDue() {
      wakeAll = true;
      const n = await poll();
      await Promise.allSettled([...inFlight]);
      return n;
    },
  };
}
