import { and, count, desc, eq, inArray, lt } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { contactInquiries } from '../../db/schema';

export type InquiryRow = typeof contactInquiries.$inferSelect;

export async function listInquiries(db: DbOrTx, offset: number, limit: number) {
  const [rows, [total]] = await Promise.all([
    db.select().from(contactInquiries).orderBy(desc(contactInquiries.id)).offset(offset).limit(limit),
    db.select({ n: count() }).from(contactInquiries),
  ]);
  return { rows, total: Number(total?.n ?? 0) };
}

export async function setInquiryStatus(
  db: DbOrTx,
  id: number,
  status: string,
): Promise<InquiryRow | undefined> {
  const [row] = await db
    .update(contactInquiries)
    .set({ status, updatedAt: new Date() })
    .where(eq(contactInquiries.id, id))
    .returning();
  return row;
}

/** The inquiry's status and reply, locked for a change in the same transaction. */
export async function findInquiryForUpdate(db: DbOrTx, id: number) {
  const [row] = await db
    .select({ status: contactInquiries.status, replyMessage: contactInquiries.replyMessage })
    .from(contactInquiries)
    .where(eq(contactInquiries.id, id))
    .for('update');
  return row;
}

/**
 * Every inquiry (of the given statuses), newest first, in batches read by keyset (id below the
 * last batch's): constant memory and no OFFSET, whatever the number of inquiries.
 */
export async function* inquiryBatches(
  db: DbOrTx,
  statuses: readonly string[] | undefined,
  batchSize = 1000,
): AsyncGenerator<InquiryRow[]> {
  let below: number | null = null;
  for (;;) {
    const rows = await db
      .select()
      .from(contactInquiries)
      .where(
        and(
          statuses?.length ? inArray(contactInquiries.status, [...statuses]) : undefined,
          below === null ? undefined : lt(contactInquiries.id, below),
        ),
      )
      .orderBy(desc(contactInquiries.id))
      .limit(batchSize);
    if (!rows.length) return;
    yield rows;
    if (rows.length < batchSize) return;
    below = (rows[rows.length - 1] as InquiryRow).id;
  }
}

/** The reply stored on the inquiry, which is then responded; undefined for an unknown inquiry. */
export async function saveInquiryReply(
  db: DbOrTx,
  id: number,
  reply: { message: string; by: number },
): Promise<InquiryRow | undefined> {
  const [row] = await db
    .update(contactInquiries)
    .set({
      replyMessage: reply.message,
      repliedAt: new Date(),
      repliedBy: reply.by,
      status: 'responded',
      updatedAt: new Date(),
    })
    .where(eq(contactInquiries.id, id))
    .returning();
  return row;
}
