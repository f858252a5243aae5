import { and, count, desc, eq, inArray, lt } from 'drizzle-orm';
import { keysetBatches, type RowBatches } from '../../db/batches';
import type { Database, DbOrTx } from '../../db/client';
import { columnIndexes, type TextRow } from '../../db/text-rows';
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

/** The inquiries' CSV columns only, read as text rows (`Database.eachTextRow`) in this order. */
const exportColumns = {
  id: contactInquiries.id,
  createdAt: contactInquiries.createdAt,
  firstName: contactInquiries.firstName,
  lastName: contactInquiries.lastName,
  email: contactInquiries.email,
  phone: contactInquiries.phone,
  subject: contactInquiries.subject,
  message: contactInquiries.message,
  status: contactInquiries.status,
  replyMessage: contactInquiries.replyMessage,
  repliedAt: contactInquiries.repliedAt,
};

/** Where each exported column sits in an `InquiryExportRow`. */
export const INQUIRY_EXPORT_AT = columnIndexes(exportColumns);

/** One exported inquiry: each column's text as PostgreSQL sends it. */
export type InquiryExportRow = TextRow;

/**
 * Every inquiry (of the given statuses), newest first, in batches read by keyset (id below the
 * last batch's): no OFFSET, whatever the number of inquiries. Each batch is one statement whose rows
 * are arrays of text, read only when the consumer asks for it (csvStream).
 */
export function inquiryBatches(
  database: Pick<Database, 'db' | 'eachTextRow'>,
  statuses: readonly string[] | undefined,
  batchSize = 1000,
): RowBatches<InquiryExportRow> {
  return keysetBatches<InquiryExportRow, number>(
    batchSize,
    (below, onRow) =>
      database.eachTextRow(
        database.db
          .select(exportColumns)
          .from(contactInquiries)
          .where(
            and(
              statuses?.length ? inArray(contactInquiries.status, [...statuses]) : undefined,
              below === null ? undefined : lt(contactInquiries.id, below),
            ),
          )
          .orderBy(desc(contactInquiries.id))
          .limit(batchSize)
          .toSQL(),
        onRow,
      ),
    (last) => Number(last[INQUIRY_EXPORT_AT.id]),
  );
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
