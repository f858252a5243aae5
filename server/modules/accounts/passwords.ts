import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/argon2';
import { AppError } from '../../plugins/errors';

// argon2id with the library's defaults (m=19 MiB, t=2, p=1: OWASP's minimum). One hash or verify
// costs about 25 ms of CPU on this machine's cores (measured), and it runs on libuv's thread pool.
//
// Hashing runs at most one per CPU core at a time, in arrival order. libuv's four pool threads
// hashing at once on two cores oversubscribed the CPU and every other request waited behind the
// logins; one at a time (cores - 1) left the event loop a core but starved the logins themselves
// (they queued behind a thread that got half a core). One per core was best for both under the
// load benchmark (docs/benchmarks.md, load): logins p99 192 ms, everything else unchanged. The
// pool keeps its other threads for file work.

export const PASSWORD_HASHING_CONCURRENCY = Math.max(1, availableParallelism());

/** Hashes allowed to wait for a core (PASSWORD_HASH_QUEUE); beyond it a request is refused at once. */
export const DEFAULT_PASSWORD_QUEUE = 64;
export const HASHING_BUSY_MESSAGE = 'The server is busy. Please try again in a moment.';

export class QueueFullError extends AppError {
  constructor() {
    super(503, HASHING_BUSY_MESSAGE, undefined, { 'retry-after': '2' });
  }
}

/**
 * Runs at most `limit` of the given tasks at once, the rest in arrival order; at most `maxWaiting`
 * wait (`() => number` so it can be configured at start), any more are refused with QueueFullError
 * instead of an unbounded wait: a burst of logins answers 503 + Retry-After rather than hours of queue.
 */
export function concurrencyLimit(limit: number, maxWaiting: () => number = () => Number.POSITIVE_INFINITY) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (running >= limit) {
      if (waiting.length >= maxWaiting()) throw new QueueFullError();
      await new Promise<void>((resolve) => waiting.push(resolve));
    } else running++;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}

let queueLimit = DEFAULT_PASSWORD_QUEUE;
/** Set once at start from the configuration (PASSWORD_HASH_QUEUE). */
export function setPasswordQueueLimit(n: number): void {
  queueLimit = n;
}

const hashing = concurrencyLimit(PASSWORD_HASHING_CONCURRENCY, () => queueLimit);

export const hashPassword = (password: string) => hashing(() => hash(password));

/** False for a wrong password or an unreadable hash; a full queue is a QueueFullError (503). */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  return hashing(async () => {
    try {
      return await verify(stored, password);
    } catch {
      return false;
    }
  });
}

let dummyHash: Promise<string> | undefined;
/** Verified against when the e-mail is unknown, so both failures cost the same time. */
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword('not-a-real-password-but-real-cost');
  return dummyHash;
}
