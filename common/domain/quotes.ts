import { utcDay } from './turnaround';

// A quote's life (docs/product/quotes.md): sent → accepted | declined | withdrawn. "Expired" is not
// stored: a sent quote counts as expired once its validity date (a UTC calendar day, included) has passed.

export const QUOTE_STATUSES = ['sent', 'accepted', 'declined', 'expired', 'withdrawn'] as const;
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];

export const QUOTE_STATUS_LABELS: Record<QuoteStatus, string> = {
  sent: 'Quote awaiting your answer',
  accepted: 'Quote accepted',
  declined: 'Quote declined',
  expired: 'Quote expired',
  withdrawn: 'Quote withdrawn',
};

/** The status a reader sees: a stored "sent" past its validity date reads "expired". */
export function effectiveQuoteStatus(
  stored: string | null,
  validUntil: string | null,
  now: Date = new Date(),
): QuoteStatus | null {
  if (!stored) return null;
  if (stored === 'sent' && validUntil !== null && utcDay(now) > validUntil) return 'expired';
  return (QUOTE_STATUSES as readonly string[]).includes(stored) ? (stored as QuoteStatus) : null;
}

/** The invoice number and payment reference of an accepted quote: VAL-0001-Q3. */
export function invoiceNumber(displayId: string, quoteId: number): string {
  return `${displayId}-Q${quoteId}`;
}
