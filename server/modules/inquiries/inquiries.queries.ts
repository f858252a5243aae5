import { count, desc, eq } from 'drizzle-orm';
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
