import type { z } from 'zod';
import type { sendQuoteRequest } from '../../../common/contracts/quotes';
import { parseAmount, sumMinor, surchargeMinor } from '../../../common/domain/money';
import { effectiveQuoteStatus } from '../../../common/domain/quotes';
import { displaySampleId, normalizeStatus, SERVICES } from '../../../common/domain/samples';
import { emitWebhookEvent } from '../webhooks/webhook-events';
import type { AppDeps } from '../../app-deps';
import { type AuditWho, recordAudit } from '../../audit/audit';
import type { DbOrTx } from '../../db/client';
import type { QuoteLineRow } from '../../db/schema';
import { mailInvoiceIssued, mailQuoteAnswered, mailQuoteSent } from '../../mail/notifications';
import { conflict, forbidden, notFound } from '../../plugins/errors';
import type { Actor } from '../../policies/actor';
import { canAnswerQuote, canDownloadInvoice, canMarkInvoicePaid, canSendQuote } from '../../policies/quotes';
import { canReadSample } from '../../policies/samples';
import { readLabSettings } from '../../db/lab-settings';
import { findSample, findSampleForUpdate, type SampleRow } from '../../db/samples';
import { priceListOf } from './price-list';
import {
  findOwner,
  insertQuote,
  latestQuote,
  openQuoteForUpdate,
  type QuoteRow,
  syncSampleQuote,
  updateQuote,
} from './quotes.queries';
import { isoDay } from '../../time';

// What happens to a sample's quote (docs/product/quotes.md): sent (or replaced) by the people who
// work on the sample, withdrawn before an answer, accepted or declined by the owner, paid (admin).

export const QUOTE_ERRORS = {
  sampleNotFound: 'Sample not found',
  notYourSample: 'Only the assigned staff member or an admin can price this sample',
  onlyOwner: 'Only the customer who submitted this sample can answer its quote',
  alreadyAccepted: 'The quote for this sample was already accepted',
  completed: 'This sample is completed: there is nothing left to quote',
  nothingToWithdraw: 'No quote is waiting for an answer',
  nothingToAnswer: 'No quote is waiting for your answer',
  expired: 'This quote has expired; ask the lab for a new one',
  changed:
    'The lab has changed this quote since you opened it; please read the current quote and answer again',
  noAcceptedQuote: 'This sample has no accepted quote, so there is no invoice',
  alreadyPaid: 'This invoice is already marked paid',
  noInvoice: 'No invoice for this sample: its quote has not been accepted',
} as const;

/** Default validity of a drafted quote. */
export const DRAFT_VALID_DAYS = 14;

type Send = z.output<typeof sendQuoteRequest>;

/** The sample locked for the change, or 404 for whoever may not even read it. */
async function lockedSample(tx: DbOrTx, actor: Actor, sampleId: number): Promise<SampleRow> {
  const sample = await findSampleForUpdate(tx, sampleId);
  if (!sample || !canReadSample(actor, sample)) throw notFound(QUOTE_ERRORS.sampleNotFound);
  return sample;
}

/** The price list's suggestion: one line per requested service, the urgent surcharge, 14 days' validity. */
export async function draftQuote(db: DbOrTx, sample: SampleRow, now: Date = new Date()) {
  const list = priceListOf(await readLabSettings(db));
  const chosen = SERVICES.filter((s) => sample[s.field]);
  const lines: QuoteLineRow[] = chosen.map((s) => ({
    description: s.label,
    amountMinor: list.pricesMinor[s.field],
  }));
  if (!lines.length) lines.push({ description: 'Basic Assessment', amountMinor: 0 });
  const urgent = sample.urgencyLevel === 'urgent';
  if (urgent && list.urgentSurchargePercent > 0) {
    const subtotal = sumMinor(lines.map((l) => l.amountMinor));
    lines.push({
      description: `Urgent handling (+${list.urgentSurchargePercent}%)`,
      amountMinor: surchargeMinor(subtotal, list.urgentSurchargePercent),
    });
  }
  const validUntil = isoDay(new Date(now.getTime() + DRAFT_VALID_DAYS * 86_400_000));
  return {
    lines,
    totalMinor: sumMinor(lines.map((l) => l.amountMinor)),
    currency: list.currency,
    validUntil,
    urgent,
  };
}

/** Checks the caller may price the sample; answers the sample. */
export async function sampleToPrice(db: DbOrTx, actor: Actor, sampleId: number): Promise<SampleRow> {
  const sample = await lockedSample(db, actor, sampleId);
  if (!canSendQuote(actor, sample)) throw forbidden(QUOTE_ERRORS.notYourSample);
  return sample;
}

/**
 * The sample whose quote the lab changes (send or withdraw), locked, and its latest quote: refused
 * when the caller may not price it or when the sample is completed.
 */
async function quoteToChange(tx: DbOrTx, actor: Actor, sampleId: number) {
  const sample = await sampleToPrice(tx, actor, sampleId);
  if (normalizeStatus(sample.status) === 'completed') throw conflict(QUOTE_ERRORS.completed);
  return { sample, open: await openQuoteForUpdate(tx, sample.id) };
}

/** Sends a quote; one still waiting for an answer is withdrawn and replaced. Mails the customer. */
export async function sendQuote(
  deps: AppDeps,
  actor: Actor,
  sampleId: number,
  request: Send,
  who: AuditWho,
): Promise<QuoteRow> {
  return deps.db.transaction(async (tx) => {
    const { sample, open } = await quoteToChange(tx, actor, sampleId);
    if (open?.status === 'accepted') throw conflict(QUOTE_ERRORS.alreadyAccepted);
    const now = new Date();
    if (open) await updateQuote(tx, open.id, { status: 'withdrawn', withdrawnAt: now });
    const lines = request.lines.map((l) => {
      const amount = parseAmount(l.amount, request.currency);
      if (!amount.ok) throw new Error('quote amount was not validated');
      return { description: l.description, amountMinor: amount.minor };
    });
    const quote = await insertQuote(tx, {
      sampleId: sample.id,
      status: 'sent',
      lines,
      totalMinor: sumMinor(lines.map((l) => l.amountMinor)),
      currency: request.currency,
      validUntil: request.validUntil,
      note: request.note,
      sentBy: actor.id,
      sentAt: now,
    });
    await syncSampleQuote(tx, quote);
    await mailQuoteSent(tx, deps.mailer, sample, quote);
    await emitWebhookEvent(tx, 'quote.sent', sample.userId, {
      sampleId: sample.id,
      displayId: displaySampleId(sample.id),
      quoteId: quote.id,
      totalMinor: quote.totalMinor,
      currency: quote.currency,
      validUntil: quote.validUntil,
    });
    await recordAudit(tx, {
      ...who,
      action: 'quote.sent',
      subject: { type: 'sample', id: sample.id },
      // A quote still waiting for an answer is withdrawn by this one.
      before: open ? { quoteId: open.id, status: open.status } : null,
      after: {
        quoteId: quote.id,
        status: quote.status,
        lines: quote.lines,
        totalMinor: quote.totalMinor,
        currency: quote.currency,
        validUntil: quote.validUntil,
        ...(open ? { replacedQuoteId: open.id } : {}),
      },
    });
    return quote;
  });
}

/** Withdraws the quote still waiting for an answer. */
export async function withdrawQuote(
  deps: AppDeps,
  actor: Actor,
  sampleId: number,
  who: AuditWho,
): Promise<QuoteRow> {
  return deps.db.transaction(async (tx) => {
    const { sample, open } = await quoteToChange(tx, actor, sampleId);
    if (open?.status !== 'sent') throw conflict(QUOTE_ERRORS.nothingToWithdraw);
    const quote = await updateQuote(tx, open.id, { status: 'withdrawn', withdrawnAt: new Date() });
    await syncSampleQuote(tx, quote);
    await recordAudit(tx, {
      ...who,
      action: 'quote.withdrawn',
      subject: { type: 'sample', id: sample.id },
      before: { quoteId: open.id, status: open.status },
      after: { quoteId: quote.id, status: quote.status },
    });
    return quote;
  });
}

/** The owner accepts (the turnaround starts now) or declines (with an optional reason). */
export async function answerQuote(
  deps: AppDeps,
  actor: Actor,
  sampleId: number,
  answer: ({ accept: true } | { accept: false; reason: string | null }) & { quoteId?: number },
  who: AuditWho,
): Promise<QuoteRow> {
  return deps.db.transaction(async (tx) => {
    const sample = await lockedSample(tx, actor, sampleId);
    if (!canAnswerQuote(actor, sample)) throw forbidden(QUOTE_ERRORS.onlyOwner);
    const open = await openQuoteForUpdate(tx, sample.id);
    if (answer.quoteId !== undefined && open?.id !== answer.quoteId) throw conflict(QUOTE_ERRORS.changed);
    if (open?.status !== 'sent') throw conflict(QUOTE_ERRORS.nothingToAnswer);
    const now = new Date();
    if (effectiveQuoteStatus(open.status, open.validUntil, now) === 'expired')
      throw conflict(QUOTE_ERRORS.expired);
    const quote = await updateQuote(
      tx,
      open.id,
      answer.accept
        ? { status: 'accepted', answeredAt: now }
        : { status: 'declined', answeredAt: now, declineReason: answer.reason },
    );
    await syncSampleQuote(tx, quote);
    await mailQuoteAnswered(tx, deps.mailer, sample, quote);
    if (quote.status === 'accepted')
      await mailInvoiceIssued(tx, deps.mailer, sample, quote, await readLabSettings(tx));
    await recordAudit(tx, {
      ...who,
      action: answer.accept ? 'quote.accepted' : 'quote.declined',
      subject: { type: 'sample', id: sample.id },
      before: { quoteId: open.id, status: open.status },
      after: {
        quoteId: quote.id,
        status: quote.status,
        ...(answer.accept ? {} : { declineReason: quote.declineReason }),
      },
    });
    return quote;
  });
}

/** The accepted quote, which is the sample's invoice; 404 for whoever may not read the sample. */
async function acceptedQuote(tx: DbOrTx, actor: Actor, sampleId: number) {
  const sample = await lockedSample(tx, actor, sampleId);
  const open = await openQuoteForUpdate(tx, sample.id);
  if (open?.status !== 'accepted') throw conflict(QUOTE_ERRORS.noAcceptedQuote);
  return { sample, quote: open };
}

/** What the invoice PDF needs; 404 for whoever may not download it, or when nothing was accepted. */
export async function invoiceOf(db: DbOrTx, actor: Actor, sampleId: number) {
  const sample = await findSample(db, sampleId);
  if (!sample || !canDownloadInvoice(actor, sample)) throw notFound(QUOTE_ERRORS.sampleNotFound);
  const quote = await latestQuote(db, sample.id);
  if (quote?.status !== 'accepted') throw notFound(QUOTE_ERRORS.noInvoice);
  const [lab, owner] = await Promise.all([readLabSettings(db), findOwner(db, sample.userId)]);
  return { sample, quote, lab, owner };
}

/** An admin records the payment of the invoice with its reference. */
export async function markInvoicePaid(
  deps: AppDeps,
  actor: Actor,
  sampleId: number,
  reference: string,
  who: AuditWho,
): Promise<QuoteRow> {
  if (!canMarkInvoicePaid(actor)) throw forbidden();
  return deps.db.transaction(async (tx) => {
    const { sample, quote } = await acceptedQuote(tx, actor, sampleId);
    if (quote.paidAt) throw conflict(QUOTE_ERRORS.alreadyPaid);
    const paid = await updateQuote(tx, quote.id, {
      paidAt: new Date(),
      paidReference: reference,
      paidBy: actor.id,
    });
    await recordAudit(tx, {
      ...who,
      action: 'quote.paid',
      subject: { type: 'sample', id: sample.id },
      before: { quoteId: quote.id, paid: false },
      after: {
        quoteId: paid.id,
        paid: true,
        paidAt: paid.paidAt,
        paidReference: paid.paidReference,
        totalMinor: paid.totalMinor,
        currency: paid.currency,
      },
    });
    return paid;
  });
}
