import { and, eq, inArray, like, lt, notLike, or, sql } from 'drizzle-orm';
import {
  MAX_TWO_FACTOR_GUESSES,
  TWO_FACTOR_GUESS_WINDOW_MS,
  TWO_FACTOR_GUESSES_EXCEEDED,
} from '../../../common/contracts/two-factor';
import type { Db, DbOrTx } from '../../db/client';
import { loginAttempts } from '../../db/schema';
import { addressKey } from '../../plugins/client-address';
import { AppError } from '../../plugins/errors';

// Login throttling (docs/decisions/0010-lockout-and-two-factor.md, docs/product/security.md).
//
// Every attempt is RESERVED before the password is checked: under a per-account lock (and a
// per-address one) the recent failures are counted and, when the attempt may go ahead, rows are
// written for it at once. Success removes them again. So any number of guesses sent at the same
// moment get at most the limit of password checks; the rest are refused with 429 without costing a
// hash. The rows live in the database, so the limits hold across app instances.
//
// What is counted, over the last LOGIN_WINDOW_MS:
// - failures of one account from one address (IPv6 by /64): the hard lock, MAX_FAILURES_PER_ACCOUNT.
//   A stranger's guesses from elsewhere never lock the owner out;
// - failures from one address across all accounts (password spraying): MAX_FAILURES_PER_ADDRESS;
// - failures of the account from everywhere: beyond ACCOUNT_SLOWDOWN_AFTER the account only slows
//   down — one attempt per ACCOUNT_SLOWDOWN_INTERVAL_MS from addresses it has never signed in from.
//   Addresses with a complete sign-in (password, and the second factor when it is on) in the last
//   KNOWN_ADDRESS_MS are not slowed; the right password alone does not make an address known.
//
// Second-step codes are also counted per ACCOUNT across all addresses (`reserveSecondFactor`): at
// most MAX_TWO_FACTOR_GUESSES wrong codes in TWO_FACTOR_GUESS_WINDOW_MS, then every code is refused
// with 429 — the right one too — until the window has passed, and the owner is mailed once. Without
// it, the per-address limits let an attacker who has the password spread guesses over many networks.

export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const MAX_FAILURES_PER_ACCOUNT = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;
export const ACCOUNT_SLOWDOWN_AFTER = 10;
export const ACCOUNT_SLOWDOWN_INTERVAL_MS = 10 * 1000;
export const KNOWN_ADDRESS_MS = 30 * 24 * 60 * 60 * 1000;
export const THROTTLED_MESSAGE = 'Too many failed login attempts. Please try again in a few minutes.';
export const SLOWED_MESSAGE =
  'This account has seen many failed login attempts. Please wait a few seconds and try again.';

/**
 * A reserved attempt: settle it with `succeeded` (or leave it standing as a failure). `knownAddress`
 * (default true) says the sign-in is complete, so the address becomes one the account signs in from;
 * false for a right password that still waits for its second factor, or a current-password check.
 */
export type LoginAttempt = { succeeded(opts?: { knownAddress?: boolean }): Promise<void> };

/** A reserved second-step guess of one account. */
export type SecondFactorGuess = {
  /** The code was right: the guess is not counted. */
  succeeded(): Promise<void>;
  /**
   * The code was wrong: the guess stays counted. When this makes the account reach the limit,
   * `onLimit` runs once per window, in the transaction that records it (to queue the owner's mail).
   */
  failed(onLimit: (tx: DbOrTx) => Promise<void>): Promise<void>;
};

export type LoginThrottle = {
  /** Reserves one attempt for this account from this address, or throws 429. */
  reserve(email: string, ip: string): Promise<LoginAttempt>;
  /** Reserves one second-step code check of the account `userId` (all addresses), or throws 429. */
  reserveSecondFactor(userId: number): Promise<SecondFactorGuess>;
};

// Advisory-lock namespace of the login throttle (any constant distinct from the app's others).
const LOCK_NAMESPACE = 4_242_010;

const keysFor = (email: string, ip: string) => {
  const account = email.trim().toLowerCase();
  const address = addressKey(ip);
  return {
    accountAtAddress: `an:${account}|${address}`,
    address: `n:${address}`,
    account: `a:${account}`,
    known: `ok:${account}|${address}`,
  };
};

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

const NO_ATTEMPT: LoginAttempt = { succeeded: async () => {} };
const NO_GUESS: SecondFactorGuess = { succeeded: async () => {}, failed: async () => {} };

const guessKeys = (userId: number) => ({ guesses: `mfa:${userId}`, alerted: `mfa-alert:${userId}` });

export function createLoginThrottle(db: Db, enabled: boolean): LoginThrottle {
  let sweepAfter = 0;
  const sweep = async () => {
    // Old rows are removed now and then (at most once a minute per instance).
    if (Date.now() < sweepAfter) return;
    sweepAfter = Date.now() + 60_000;
    const now = Date.now();
    await db
      .delete(loginAttempts)
      .where(
        or(
          and(
            notLike(loginAttempts.key, 'ok:%'),
            lt(loginAttempts.attemptedAt, new Date(now - LOGIN_WINDOW_MS)),
          ),
          and(
            like(loginAttempts.key, 'ok:%'),
            lt(loginAttempts.attemptedAt, new Date(now - KNOWN_ADDRESS_MS)),
          ),
        ),
      );
  };

  return {
    async reserve(email, ip) {
      if (!enabled) return NO_ATTEMPT;
      const keys = keysFor(email, ip);
      const reserved = await db.transaction(async (tx) => {
        // One account's attempts, then one address's, pass one at a time (always in this order).
        await tx.execute(
          sql`select pg_advisory_xact_lock(${LOCK_NAMESPACE}, hashtext(${keys.account})),
                     pg_advisory_xact_lock(${LOCK_NAMESPACE}, hashtext(${keys.address}))`,
        );
        const since = new Date(Date.now() - LOGIN_WINDOW_MS).toISOString();
        const knownSince = new Date(Date.now() - KNOWN_ADDRESS_MS).toISOString();
        const counts = rowsOf<{ key: string; n: number | string; latest: string | Date }>(
          await tx.execute(sql`
            select key, count(*)::int as n, max(attempted_at) as latest from login_attempts
            where (key in (${keys.accountAtAddress}, ${keys.address}, ${keys.account})
                   and attempted_at > ${since}::timestamptz)
               or (key = ${keys.known} and attempted_at > ${knownSince}::timestamptz)
            group by key`),
        );
        const byKey = new Map(counts.map((r) => [r.key, { n: Number(r.n), latest: new Date(r.latest) }]));
        const count = (key: string) => byKey.get(key)?.n ?? 0;
        if (
          count(keys.accountAtAddress) >= MAX_FAILURES_PER_ACCOUNT ||
          count(keys.address) >= MAX_FAILURES_PER_ADDRESS
        ) {
          throw new AppError(429, THROTTLED_MESSAGE, undefined, {
            'retry-after': String(Math.ceil(LOGIN_WINDOW_MS / 1000)),
          });
        }
        if (count(keys.account) >= ACCOUNT_SLOWDOWN_AFTER && count(keys.known) === 0) {
          const latest = byKey.get(keys.account)?.latest.getTime() ?? 0;
          const wait = latest + ACCOUNT_SLOWDOWN_INTERVAL_MS - Date.now();
          if (wait > 0)
            throw new AppError(429, SLOWED_MESSAGE, undefined, {
              'retry-after': String(Math.ceil(wait / 1000)),
            });
        }
        return tx
          .insert(loginAttempts)
          .values([{ key: keys.accountAtAddress }, { key: keys.address }, { key: keys.account }])
          .returning({ id: loginAttempts.id });
      });
      await sweep().catch(() => undefined);
      const ids = reserved.map((r) => r.id);
      return {
        async succeeded(opts) {
          if (opts?.knownAddress === false) {
            // Not a failure, but not a complete sign-in either: the address stays unknown.
            await db.delete(loginAttempts).where(inArray(loginAttempts.id, ids));
            return;
          }
          // The reservation was not a failure; the address is now one this account signs in from.
          await db.transaction(async (tx) => {
            await tx
              .delete(loginAttempts)
              .where(or(inArray(loginAttempts.id, ids), eq(loginAttempts.key, keys.known)));
            await tx.insert(loginAttempts).values({ key: keys.known });
          });
        },
      };
    },

    async reserveSecondFactor(userId) {
      if (!enabled) return NO_GUESS;
      const keys = guessKeys(userId);
      const lock = (tx: DbOrTx) =>
        tx.execute(sql`select pg_advisory_xact_lock(${LOCK_NAMESPACE}, hashtext(${keys.guesses}))`);
      const recent = async (tx: DbOrTx, key: string) => {
        const since = new Date(Date.now() - TWO_FACTOR_GUESS_WINDOW_MS).toISOString();
        const [row] = rowsOf<{ n: number | string; oldest: string | Date | null }>(
          await tx.execute(sql`
            select count(*)::int as n, min(attempted_at) as oldest from login_attempts
            where key = ${key} and attempted_at > ${since}::timestamptz`),
        );
        return { n: Number(row?.n ?? 0), oldest: row?.oldest ? new Date(row.oldest).getTime() : null };
      };
      // Counted before the code is checked, under a per-account lock: guesses sent at once cannot
      // all be checked.
      const id = await db.transaction(async (tx) => {
        await lock(tx);
        const { n, oldest } = await recent(tx, keys.guesses);
        if (n >= MAX_TWO_FACTOR_GUESSES) {
          const wait = (oldest ?? Date.now()) + TWO_FACTOR_GUESS_WINDOW_MS - Date.now();
          throw new AppError(429, TWO_FACTOR_GUESSES_EXCEEDED, undefined, {
            'retry-after': String(Math.max(1, Math.ceil(wait / 1000))),
          });
        }
        const [row] = await tx
          .insert(loginAttempts)
          .values({ key: keys.guesses })
          .returning({ id: loginAttempts.id });
        return row?.id ?? 0;
      });
      return {
        async succeeded() {
          await db.delete(loginAttempts).where(eq(loginAttempts.id, id));
        },
        async failed(onLimit) {
          await db.transaction(async (tx) => {
            await lock(tx);
            if ((await recent(tx, keys.guesses)).n < MAX_TWO_FACTOR_GUESSES) return;
            if ((await recent(tx, keys.alerted)).n > 0) return;
            await tx.insert(loginAttempts).values({ key: keys.alerted });
            await onLimit(tx);
          });
        },
      };
    },
  };
}
