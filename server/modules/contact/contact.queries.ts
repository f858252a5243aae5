import type { DbOrTx } from '../../db/client';
import { contactInquiries } from '../../db/schema';

export type NewContactInquiry = typeof contactInquiries.$inferInsert;
export type ContactInquiryRow = typeof contactInquiries.$inferSelect;

export async function insertContactInquiry(
  db: DbOrTx,
  values: NewContactInquiry,
): Promise<ContactInquiryRow> {
  const [row] = await db.insert(contactInquiries).values(values).returning();
  if (!row) throw new Error('contact inquiry not stored');
  return row;
}
