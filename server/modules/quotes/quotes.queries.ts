import { and, desc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { quotes, samples, users } from '../../db/schema';

export type QuoteRow = typeof quotes.$inferSelect;
export type NewQuote = Omit<typeof quotes.$inferInsert, 'id'>;

/** The sample's newest quote, whatever its status. */
export async function latestQuote(db: DbOrTx, sampleId: number): Promise<QuoteRow | undefined> {
  const [row] = await db
    .select()
    .from(quotes)
    .where(eq(quotes.sampleId, sampleId))
    .orderBy(desc(quotes.id))
    .limit(1);
  return row;
}

/** The quote that is sent or accepted (at most one, by a unique index), locked for the transaction. */
export async function openQuoteForUpdate(db: DbOrTx, sampleId: number): Promise<QuoteRow | undefined> {
  const [row] = await db
    .select()
    .from(quotes)
    .where(and(eq(quotes.sampleId, sampleId), inArray(quotes.status, ['sent', 'accepted'])))
    .limit(1)
    .for('update');
  return row;
}

export async function insertQuote(db: DbOrTx, values: NewQuote): Promise<QuoteRow> {
  const [row] = await db.insert(quotes).values(values).returning();
  if (!row) throw new Error('quote not inserted');
  return row;
}

export async function updateQuote(
  db: DbOrTx,
  id: number,
  values: Partial<Omit<NewQuote, 'sampleId'>>,
): Promise<QuoteRow> {
  const [row] = await db.update(quotes).set(values).where(eq(quotes.id, id)).returning();
  if (!row) throw new Error('quote not updated');
  return row;
}

/** Copies the quote's status, validity and acceptance onto its sample, so every sample answer and list carries them. */
export async function syncSampleQuote(db: DbOrTx, quote: QuoteRow): Promise<void> {
  await db
    .update(samples)
    .set({
      quoteStatus: quote.status,
      quoteValidUntil: quote.validUntil,
      quoteAcceptedAt: quote.status === 'accepted' ? quote.answeredAt : null,
    })
    .where(eq(samples.id, quote.sampleId));
}

/** The customer an invoice is made out to. */
export async function findOwner(db: DbOrTx, userId: number) {
  const [row] = await db
    .select({ email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row;
}
