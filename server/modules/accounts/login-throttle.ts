import { and, count, eq, gt, lt, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { loginAttempts } from '../../db/schema';
import { AppError } from '../../plugins/errors';

// Failed logins live in the database so the limit holds across app instances (CONTRACT §4).
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const MAX_FAILURES_PER_ACCOUNT = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;
export const THROTTLED_MESSAGE = 'Too many failed login attempts. Please try again in a few minutes.';

export type LoginThrottle = {
  check(email: string, ip: string): Promise<void>;
  recordFailure(email: string, ip: string): Promise<void>;
};

const accountKey = (email: string) => `account:${email.toLowerCase()}`;
const addressKey = (ip: string) => `address:${ip}`;

export function createLoginThrottle(db: Db, enabled: boolean): LoginThrottle {
  return {
    async check(email, ip) {
      if (!enabled) return;
      const since = new Date(Date.now() - LOGIN_WINDOW_MS);
      const rows = await db
        .select({ key: loginAttempts.key, n: count() })
        .from(loginAttempts)
        .where(
          and(
            or(eq(loginAttempts.key, accountKey(email)), eq(loginAttempts.key, addressKey(ip))),
            gt(loginAttempts.attemptedAt, since),
          ),
        )
        .groupBy(loginAttempts.key);
      const byKey = new Map(rows.map((r) => [r.key, Number(r.n)]));
      if (
        (byKey.get(accountKey(email)) ?? 0) >= MAX_FAILURES_PER_ACCOUNT ||
        (byKey.get(addressKey(ip)) ?? 0) >= MAX_FAILURES_PER_ADDRESS
      ) {
        throw new AppError(429, THROTTLED_MESSAGE);
      }
    },
    async recordFailure(email, ip) {
      if (!enabled) return;
      await db.insert(loginAttempts).values([{ key: accountKey(email) }, { key: addressKey(ip) }]);
      // Old attempts are kept out of the way opportunistically.
      if (Math.random() < 0.05) {
        await db
          .delete(loginAttempts)
          .where(lt(loginAttempts.attemptedAt, new Date(Date.now() - LOGIN_WINDOW_MS)));
      }
    },
  };
}
