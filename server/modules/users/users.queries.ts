import { and, asc, count, eq, ilike, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Role } from '../../../common/domain/roles';
import type { DbOrTx } from '../../db/client';
import { users } from '../../db/schema';
import type { UserRow } from '../accounts/accounts.queries';

export type AdminUserRow = Pick<UserRow, 'id' | 'firstName' | 'lastName' | 'email' | 'role' | 'isActive'> & {
  twoFactorEnabled: boolean;
};

const adminUserColumns = {
  id: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  role: users.role,
  isActive: users.isActive,
  twoFactorEnabled: sql<boolean>`(${users.totpSecret} is not null)`.mapWith(Boolean),
};

export type UserFilter = { role?: Role; search?: string };

/** LIKE's own wildcards in a search are matched literally. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function userWhere(filter: UserFilter): SQL | undefined {
  const conditions: SQL[] = [];
  if (filter.role) conditions.push(eq(users.role, filter.role));
  if (filter.search) {
    const pattern = likePattern(filter.search);
    const fullName = sql`coalesce(${users.firstName}, '') || ' ' || coalesce(${users.lastName}, '')`;
    const match = or(
      ilike(users.email, pattern),
      ilike(users.firstName, pattern),
      ilike(users.lastName, pattern),
      sql`${fullName} ilike ${pattern}`,
    );
    if (match) conditions.push(match);
  }
  return conditions.length ? and(...conditions) : undefined;
}

/** One page of matching accounts and how many match in all: the admin Staff tab. */
export async function listUsersPage(
  db: DbOrTx,
  filter: UserFilter,
  page: number,
  pageSize: number,
): Promise<{ rows: AdminUserRow[]; total: number }> {
  const where = userWhere(filter);
  const [totalRow] = await db.select({ n: count() }).from(users).where(where);
  const rows = await db
    .select(adminUserColumns)
    .from(users)
    .where(where)
    .orderBy(asc(users.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return { rows, total: Number(totalRow?.n ?? 0) };
}

/** One account as the admin screens show it. */
export async function findAdminUser(db: DbOrTx, id: number): Promise<AdminUserRow | undefined> {
  const [row] = await db.select(adminUserColumns).from(users).where(eq(users.id, id)).limit(1);
  return row;
}

/** True when another account already uses this e-mail. */
export async function emailTakenByOther(db: DbOrTx, email: string, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, email.toLowerCase()), ne(users.id, userId)))
    .limit(1);
  return Boolean(row);
}

export type ProfileChanges = {
  email: string;
  phone: string | null;
  firstName: string | null;
  lastName: string | null;
  /** Cleaned rich text; undefined keeps the current one. */
  qualifications?: string | null;
  /** Storage key of a new profile image; undefined keeps the current one. */
  profileImageUrl?: string;
  /** Storage key of a new signature; undefined keeps the current one. */
  signature?: string;
};

export async function updateProfile(
  db: DbOrTx,
  userId: number,
  changes: ProfileChanges,
): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ ...changes, email: changes.email.toLowerCase(), updatedAt: new Date() })
    .where(eq(users.id, userId))
    .returning();
  return row;
}

/**
 * Locks every active admin row (so two admins demoting each other at once cannot both succeed)
 * and answers how many there are.
 */
export async function lockActiveAdmins(db: DbOrTx): Promise<number[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, 'admin'), eq(users.isActive, true)))
    .orderBy(asc(users.id))
    .for('update');
  return rows.map((r) => r.id);
}

export async function findUserForUpdate(db: DbOrTx, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1).for('update');
  return row;
}

export async function setUserRole(db: DbOrTx, id: number, role: Role): Promise<AdminUserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ role, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning(adminUserColumns);
  return row;
}

/** Deactivating also ends every session of the account (its session version moves on). */
export async function setUserActive(
  db: DbOrTx,
  id: number,
  isActive: boolean,
): Promise<AdminUserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({
      isActive,
      ...(isActive ? {} : { sessionVersion: sql`${users.sessionVersion} + 1` }),
      updatedAt: new Date(),
    })
    .where(eq(users.id, id))
    .returning(adminUserColumns);
  return row;
}

/** A changed address is unconfirmed until its owner follows the new confirmation link. */
export async function markEmailUnverified(db: DbOrTx, userId: number): Promise<void> {
  await db.update(users).set({ emailVerifiedAt: null }).where(eq(users.id, userId));
}
