import { count, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { mailOutbox, users } from '../../db/schema';
import type { OutboxRow } from '../../mail/mailer';

/** One page of the outbox, newest first, and how many mails it holds. */
export async function listOutbox(db: DbOrTx, page: number, pageSize: number) {
  const rows = await db
    .select()
    .from(mailOutbox)
    .orderBy(desc(mailOutbox.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  const [total] = await db.select({ n: count() }).from(mailOutbox);
  return { rows, total: total?.n ?? 0 };
}

export async function findOutboxMail(db: DbOrTx, id: number): Promise<OutboxRow | undefined> {
  const [row] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
  return row;
}

/** Status e-mails off for an account; false when there is no such account. */
export async function turnOffStatusMails(db: DbOrTx, userId: number): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ notifyStatusChanges: false, updatedAt: new Date() })
    .where(eq(users.id, userId))
    .returning({ id: users.id });
  return rows.length > 0;
}
