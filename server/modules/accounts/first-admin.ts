import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { countActiveAdmins, findUserByEmail, insertUser } from './accounts.queries';
import { StartupError } from '../../plugins/auth';
import { isGuessablePasswordOffLoop, labNameFor, personalWords } from './password-strength';
import { hashPassword } from './passwords';

export const GENERATED_ADMIN_EMAIL = 'admin@localhost';

const notAdminMessage = (email: string, role: string) =>
  `ADMIN_EMAIL ${email} belongs to an existing account with role "${role}": refusing to start rather ` +
  'than make it an admin. Choose another address for the admin account, or have an admin change ' +
  "that account's role in the portal first.";

/**
 * README.md (Configuration): ADMIN_EMAIL + ADMIN_PASSWORD ensure that account exists with role admin; with
 * neither set and no admin at all, admin@localhost is created with a random password that the
 * caller prints once. Returns the generated password when one was made.
 */
export async function ensureFirstAdmin(
  db: Db,
  opts: { email?: string; password?: string },
): Promise<{ email: string; password: string } | null> {
  if (opts.email && opts.password) {
    await installAdmin(db, opts.email, opts.password);
    return null;
  }
  if ((await countActiveAdmins(db)) > 0) return null;
  const password = randomBytes(12).toString('base64url');
  await installAdmin(db, GENERATED_ADMIN_EMAIL, password);
  return { email: GENERATED_ADMIN_EMAIL, password };
}

/** The admin account `email` with this password, active: created, or an existing admin's updated. */
async function installAdmin(db: Db, email: string, password: string): Promise<void> {
  const existing = await findUserByEmail(db, email);
  const person = {
    email,
    firstName: existing?.firstName ?? 'Lab',
    lastName: existing?.lastName ?? 'Administrator',
  };
  if (await isGuessablePasswordOffLoop(password, personalWords(person, await labNameFor(db))))
    throw new StartupError(
      'ADMIN_PASSWORD is too common or too easy to guess (a common password, or built from the ' +
        "admin's e-mail or the lab's name): refusing to start. Choose another, for example a few unrelated words.",
    );
  // Promoting an existing customer would turn their old tokens into admin tokens.
  if (existing && existing.role !== 'admin') throw new StartupError(notAdminMessage(email, existing.role));
  const passwordHash = await hashPassword(password);
  if (existing) {
    await db
      .update(users)
      .set({ role: 'admin', isActive: true, passwordHash, updatedAt: new Date() })
      .where(eq(users.id, existing.id));
  } else {
    await insertUser(db, { email, passwordHash, firstName: 'Lab', lastName: 'Administrator', role: 'admin' });
  }
}
