import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/argon2';

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

/** Runs at most `limit` of the given tasks at once, the rest in arrival order. */
export function concurrencyLimit(limit: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}

const hashing = concurrencyLimit(PASSWORD_HASHING_CONCURRENCY);

export const hashPassword = (password: string) => hashing(() => hash(password));

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await hashing(() => verify(stored, password));
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;
/** Verified against when the e-mail is unknown, so both failures cost the same time. */
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword('not-a-real-password-but-real-cost');
  return dummyHash;
}
