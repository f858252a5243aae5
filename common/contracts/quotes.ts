import { z } from 'zod';
import { DEFAULT_CURRENCY, isCurrencyCode } from '../domain/money';
import { QUOTE_STATUSES } from '../domain/quotes';
import { amountInput, checkAmount, currencyCode } from './lab';

// Quotes and invoices (docs/product/quotes.md). Amounts arrive in major units (number or decimal
// text) and leave both as major-unit numbers and as exact integer minor units.

export const MAX_QUOTE_LINES = 20;
export const MAX_QUOTE_VALIDITY_DAYS = 365;
export const MAX_QUOTE_NOTE = 2000;
export const MAX_DECLINE_REASON = 1000;

export const QUOTE_MESSAGES = {
  lineDescription: 'Describe each line',
  noLines: 'Add at least one line',
  tooManyLines: `A quote has at most ${MAX_QUOTE_LINES} lines`,
  validUntil: 'Enter the validity date as YYYY-MM-DD',
  validUntilPast: 'The validity date cannot be in the past',
  validUntilFar: `The validity date must be within ${MAX_QUOTE_VALIDITY_DAYS} days`,
  note: `The note is at most ${MAX_QUOTE_NOTE} characters`,
  reason: `The reason is at most ${MAX_DECLINE_REASON} characters`,
  reference: 'Enter the payment reference',
} as const;

/** "YYYY-MM-DD" of today in UTC. */
const todayUtc = () => new Date().toISOString().slice(0, 10);
const daysAhead = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const isCalendarDay = (v: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(v) && new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v;

export const quoteLineInput = z.object({
  description: z
    .string({ message: QUOTE_MESSAGES.lineDescription })
    .trim()
    .min(1, QUOTE_MESSAGES.lineDescription)
    .max(200),
  amount: amountInput,
});

/** POST /api/staff/samples/{id}/quote; the web dialog validates with the same schema. */
export const sendQuoteRequest = z
  .object({
    lines: z
      .array(quoteLineInput, { message: QUOTE_MESSAGES.noLines })
      .min(1, QUOTE_MESSAGES.noLines)
      .max(MAX_QUOTE_LINES, QUOTE_MESSAGES.tooManyLines),
    currency: currencyCode,
    validUntil: z
      .string({ message: QUOTE_MESSAGES.validUntil })
      .trim()
      .refine(isCalendarDay, QUOTE_MESSAGES.validUntil)
      .refine((v) => !isCalendarDay(v) || v >= todayUtc(), QUOTE_MESSAGES.validUntilPast)
      .refine(
        (v) => !isCalendarDay(v) || v <= daysAhead(MAX_QUOTE_VALIDITY_DAYS),
        QUOTE_MESSAGES.validUntilFar,
      ),
    note: z
      .string()
      .max(MAX_QUOTE_NOTE, QUOTE_MESSAGES.note)
      .nullish()
      .transform((v) => (v?.trim() ? v.trim() : null)),
  })
  .superRefine((v, ctx) => {
    const currency = isCurrencyCode(v.currency) ? v.currency : DEFAULT_CURRENCY;
    v.lines.forEach((line, i) => checkAmount(ctx, line.amount, currency, ['lines', i, 'amount']));
  });
export type SendQuoteRequest = z.input<typeof sendQuoteRequest>;

/**
 * The quote the customer saw: an answer naming it is refused with 409 when the lab has since replaced
 * or withdrawn it, so nobody accepts a price they never read. The web app always sends it.
 */
const answeredQuoteId = z.number({ message: 'quoteId must be a quote id' }).int().positive().optional();

/** POST /api/samples/{id}/quote/accept: `{quoteId}` (or no body, which accepts the quote waiting now). */
export const acceptQuoteRequest = z.object({ quoteId: answeredQuoteId }).nullish();
export type AcceptQuoteRequest = z.input<typeof acceptQuoteRequest>;

/** POST /api/samples/{id}/quote/decline */
export const declineQuoteRequest = z
  .object({
    quoteId: answeredQuoteId,
    reason: z
      .string()
      .max(MAX_DECLINE_REASON, QUOTE_MESSAGES.reason)
      .nullish()
      .transform((v) => (v?.trim() ? v.trim() : null)),
  })
  // No body at all is a decline without a reason.
  .nullish();
export type DeclineQuoteRequest = z.input<typeof declineQuoteRequest>;

/** POST /api/admin/samples/{id}/paid */
export const markPaidRequest = z.object({
  reference: z.string({ message: QUOTE_MESSAGES.reference }).trim().min(1, QUOTE_MESSAGES.reference).max(255),
});
export type MarkPaidRequest = z.input<typeof markPaidRequest>;

export const quoteLine = z.object({
  description: z.string(),
  /** Major units (0.3); exact in `amountMinor` (30). */
  amount: z.number(),
  amountMinor: z.number().int(),
});

export const invoiceSchema = z.object({
  /** The invoice number, also the payment reference the customer quotes: VAL-0001-Q3. */
  number: z.string(),
  paid: z.boolean(),
  paidAt: z.string().nullable(),
  paidReference: z.string().nullable(),
});

export const quoteSchema = z.object({
  id: z.number(),
  sampleId: z.number(),
  status: z.enum(QUOTE_STATUSES),
  lines: z.array(quoteLine),
  total: z.number(),
  totalMinor: z.number().int(),
  currency: z.string(),
  validUntil: z.string(),
  note: z.string().nullable(),
  sentAt: z.string(),
  answeredAt: z.string().nullable(),
  declineReason: z.string().nullable(),
  /** Present once the quote is accepted. */
  invoice: invoiceSchema.nullable(),
});
export type Quote = z.infer<typeof quoteSchema>;

/** GET /api/staff/samples/{id}/quote/draft: the quote the price list suggests. */
export const quoteDraft = z.object({
  lines: z.array(quoteLine),
  total: z.number(),
  totalMinor: z.number().int(),
  currency: z.string(),
  validUntil: z.string(),
  urgent: z.boolean(),
});
export type QuoteDraft = z.infer<typeof quoteDraft>;
