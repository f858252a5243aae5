import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../../../tests/support/test-app';
import type { Database } from '../../db/client';
import { users } from '../../db/schema';
import { StartupError } from '../../plugins/auth';
import { insertUser } from './accounts.queries';
import { ensureFirstAdmin, GENERATED_ADMIN_EMAIL } from './first-admin';
import { hashPassword, verifyPassword } from './passwords';

// ADMIN_EMAIL never promotes an existing non-admin account: their old token would become an admin
// token (docs/product/security.md). Start-up refuses with a clear message instead.

let database: Database;
let drop: () => Promise<void>;
beforeAll(async () => {
  ({ database, drop } = await freshDatabase());
});
afterAll(async () => {
  await database?.close();
  await drop?.();
});

const roleOf = async (email: string) =>
  (await database.db.select().from(users).where(eq(users.email, email)))[0]?.role;

describe('ensureFirstAdmin', () => {
  it('refuses ADMIN_EMAIL of an existing customer or staff member, changing nothing', async () => {
    for (const role of ['user', 'staff'] as const) {
      const email = `existing-${role}@example.com`;
      await insertUser(database.db, { email, passwordHash: await hashPassword('their-password'), role });
      const attempt = ensureFirstAdmin(database.db, { email, password: 'admin-password-1' });
      await expect(attempt).rejects.toBeInstanceOf(StartupError);
      await expect(ensureFirstAdmin(database.db, { email, password: 'admin-password-1' })).rejects.toThrow(
        `ADMIN_EMAIL ${email} belongs to an existing account with role "${role}"`,
      );
      expect(await roleOf(email)).toBe(role);
    }
  });

  it('still creates a new admin, and resets the password of an existing admin', async () => {
    await ensureFirstAdmin(database.db, { email: 'boss@example.com', password: 'first-password-1' });
    expect(await roleOf('boss@example.com')).toBe('admin');
    await ensureFirstAdmin(database.db, { email: 'boss@example.com', password: 'second-password-2' });
    const [row] = await database.db.select().from(users).where(eq(users.email, 'boss@example.com'));
    expect(await verifyPassword(row?.passwordHash ?? '', 'second-password-2')).toBe(true);
  });

  it(`never promotes a customer who registered ${GENERATED_ADMIN_EMAIL} either`, async () => {
    const fresh = await freshDatabase();
    try {
      await insertUser(fresh.database.db, {
        email: GENERATED_ADMIN_EMAIL,
        passwordHash: await hashPassword('squatter-password'),
      });
      await expect(ensureFirstAdmin(fresh.database.db, {})).rejects.toBeInstanceOf(StartupError);
    } finally {
      await fresh.database.close();
      await fresh.drop();
    }
  });
});
