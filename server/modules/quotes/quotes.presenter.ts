import type { Quote, QuoteDraft } from '../../../common/contracts/quotes';
import { minorToNumber } from '../../../common/domain/money';
import { effectiveQuoteStatus, invoiceNumber } from '../../../common/domain/quotes';
import { displaySampleId, SERVICES, type ServiceField } from '../../../common/domain/samples';
import type { LabSettingsRow } from '../../db/lab-settings';
import type { QuoteLineRow } from '../../db/schema';
import { isoDate, isoDateOrNull } from '../../time';
import { type PriceList, priceListOf } from './price-list';
import type { QuoteRow } from './quotes.queries';

// What of a quote and of the lab's price list leaves the server (docs/product/quotes.md).

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

/** Major-unit numbers for the settings answer. */
export function presentPrices(list: PriceList): Record<ServiceField, number> {
  return Object.fromEntries(
    SERVICES.map((s) => [s.field, minorToNumber(list.pricesMinor[s.field], list.currency)]),
  ) as Record<ServiceField, number>;
}

/** The settings answer's price fields. */
export function presentPriceSettings(row: LabSettingsRow | undefined) {
  const list = priceListOf(row);
  return {
    prices: presentPrices(list),
    urgentSurchargePercent: list.urgentSurchargePercent,
    currency: list.currency,
  };
}
