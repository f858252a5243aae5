import type { Quote, QuoteDraft } from '../../../common/contracts/quotes';
import { minorToNumber } from '../../../common/domain/money';
import { effectiveQuoteStatus, invoiceNumber } from '../../../common/domain/quotes';
import { displaySampleId } from '../../../common/domain/samples';
import type { QuoteLineRow } from '../../db/schema';
import { isoDate, isoDateOrNull } from '../../time';
import type { QuoteRow } from './quotes.queries';

// What of a quote leaves the server (docs/product/quotes.md).

export function presentLines(lines: QuoteLineRow[], currency: string) {
  return lines.map((l) => ({
    description: l.description,
    amount: minorToNumber(l.amountMinor, currency),
    amountMinor: l.amountMinor,
  }));
}

export function presentQuote(row: QuoteRow, now: Date = new Date()): Quote {
  const status = effectiveQuoteStatus(row.status, row.validUntil, now) ?? 'withdrawn';
  return {
    id: row.id,
    sampleId: row.sampleId,
    status,
    lines: presentLines(row.lines, row.currency),
    total: minorToNumber(row.totalMinor, row.currency),
    totalMinor: row.totalMinor,
    currency: row.currency,
    validUntil: row.validUntil,
    note: row.note,
    sentAt: isoDate(row.sentAt),
    answeredAt: isoDateOrNull(row.answeredAt),
    declineReason: row.declineReason,
    invoice:
      status === 'accepted'
        ? {
            number: invoiceNumber(displaySampleId(row.sampleId), row.id),
            paid: row.paidAt !== null,
            paidAt: isoDateOrNull(row.paidAt),
            paidReference: row.paidReference,
          }
        : null,
  };
}

export function presentDraft(draft: {
  lines: QuoteLineRow[];
  totalMinor: number;
  currency: string;
  validUntil: string;
  urgent: boolean;
}): QuoteDraft {
  return {
    lines: presentLines(draft.lines, draft.currency),
    total: minorToNumber(draft.totalMinor, draft.currency),
    totalMinor: draft.totalMinor,
    currency: draft.currency,
    validUntil: draft.validUntil,
    urgent: draft.urgent,
  };
}
