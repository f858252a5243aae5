import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/argon2';

// argon2id with the library's defaults (m=19 MiB, t=2, p=1: OWASP's minimum). One hash or verify
// costs about 25 ms of CPU on this machine's cores (measured), and it runs on libuv's thread pool.
//
// Hashing is limited to (cores - 1) at a time, at least 1: on two cores, four pool threads hashing
// at once took both cores from the event loop, and every other request waited behind the logins
// (docs/benchmarks.md, load). With the limit the event loop always keeps a core; logins wait their
// turn instead, for a few milliseconds each.

export const PASSWORD_HASHING_CONCURRENCY = Math.max(1, availableParallelism() - 1);

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
