import { and, eq, sql } from 'drizzle-orm';
import type { Role } from '../../../common/domain/roles';
import type { Db, DbOrTx } from '../../db/client';
import { preparedStatements } from '../../db/prepared';
import { users } from '../../db/schema';

export type UserRow = typeof users.$inferSelect;

const statements = preparedStatements((db) => ({
  byEmail: db
    .select()
    .from(users)
    .where(eq(users.email, sql.placeholder('email')))
    .limit(1)
    .prepare('users_by_email'),
  byId: db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .limit(1)
    .prepare('users_by_id'),
}));

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [row] = await statements(db).byEmail.execute({ email: email.toLowerCase() });
  return row;
}

export async function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  const [row] = await statements(db).byId.execute({ id });
  return row;
}

export async function insertUser(
  db: DbOrTx,
  values: {
    email: string;
    passwordHash: string;
    firstName?: string | null;
    lastName?: string | null;
    role?: Role;
    qualifications?: string | null;
  },
): Promise<UserRow> {
  const [row] = await db
    .insert(users)
    .values({ ...values, email: values.email.toLowerCase() })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

export async function countActiveAdmins(db: DbOrTx): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(and(eq(users.role, 'admin'), eq(users.isActive, true)));
  return row?.n ?? 0;
}
