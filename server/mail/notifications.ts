import { eq } from 'drizzle-orm';
import { formatMoney } from '../../common/domain/money';
import { invoiceNumber } from '../../common/domain/quotes';
import {
  displaySampleId,
  normalizeStatus,
  SAMPLE_STATUS_LABELS,
  samplePageFromMail,
} from '../../common/domain/samples';
import { dateInWords } from '../../common/domain/valuation';
import type { DbOrTx } from '../db/client';
import { users } from '../db/schema';
import type { Mailer } from './mailer';

// The sample events' mails (docs/product/mail.md), each queued with the caller's transaction.

type SampleRef = { id: number; userId: number; itemName: string };

async function person(tx: DbOrTx, id: number) {
  const [row] = await tx
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      notifyStatusChanges: users.notifyStatusChanges,
    })
    .from(users)
    .where(eq(users.id, id))
    .limit(1);
  return row;
}

const samplePath = samplePageFromMail;

/** A new status: to the customer, unless they turned status mails off. */
export async function mailStatusChanged(
  tx: DbOrTx,
  mailer: Mailer,
  sample: SampleRef,
  status: string,
  comment: string | null,
) {
  const owner = await person(tx, sample.userId);
  if (!owner?.notifyStatusChanges) return;
  await mailer.queue(tx, owner.email, 'statusChanged', {
    firstName: owner.firstName,
    displayId: displaySampleId(sample.id),
    itemName: sample.itemName,
    statusLabel: SAMPLE_STATUS_LABELS[normalizeStatus(status)],
    comment,
    sampleUrl: mailer.url(samplePath(sample.id)),
    unsubscribeUrl: mailer.unsubscribeUrl(owner.id),
  });
}

/** Assigned: a link to the sample for the staff member. */
export async function mailSampleAssigned(tx: DbOrTx, mailer: Mailer, sample: SampleRef, staffId: number) {
  const staff = await person(tx, staffId);
  if (!staff) return;
  await mailer.queue(tx, staff.email, 'sampleAssigned', {
    firstName: staff.firstName,
    displayId: displaySampleId(sample.id),
    itemName: sample.itemName,
    sampleUrl: mailer.url(samplePath(sample.id)),
  });
}

/** Issued or re-issued: the code, revision and links (always sent). */
export async function mailReportIssued(
  tx: DbOrTx,
  mailer: Mailer,
  sample: SampleRef,
  reportCode: string,
  revision: number,
) {
  const owner = await person(tx, sample.userId);
  if (!owner) return;
  await mailer.queue(tx, owner.email, 'reportIssued', {
    firstName: owner.firstName,
    displayId: displaySampleId(sample.id),
    itemName: sample.itemName,
    reportCode,
    revision,
    sampleUrl: mailer.url(samplePath(sample.id)),
    verifyUrl: mailer.url(`/verify-report?code=${encodeURIComponent(reportCode)}`),
  });
}

/** Withdrawn: the reason (always sent). */
export async function mailReportWithdrawn(
  tx: DbOrTx,
  mailer: Mailer,
  sample: SampleRef,
  reportCode: string,
  reason: string,
) {
  const owner = await person(tx, sample.userId);
  if (!owner) return;
  await mailer.queue(tx, owner.email, 'reportWithdrawn', {
    firstName: owner.firstName,
    displayId: displaySampleId(sample.id),
    reportCode,
    reason,
    sampleUrl: mailer.url(samplePath(sample.id)),
  });
}

/** A quote was sent: the lines, the total and the way to answer (always sent: it asks for a decision). */
export async function mailQuoteSent(
  tx: DbOrTx,
  mailer: Mailer,
  sample: SampleRef,
  quote: {
    lines: { description: string; amountMinor: number }[];
    totalMinor: number;
    currency: string;
    validUntil: string;
    note: string | null;
  },
) {
  const owner = await person(tx, sample.userId);
  if (!owner) return;
  await mailer.queue(tx, owner.email, 'quoteSent', {
    firstName: owner.firstName,
    displayId: displaySampleId(sample.id),
    itemName: sample.itemName,
    lines: quote.lines.map((l) => `${l.description}: ${formatMoney(l.amountMinor, quote.currency)}`),
    total: formatMoney(quote.totalMinor, quote.currency),
    validUntil: quote.validUntil,
    note: quote.note,
    sampleUrl: mailer.url(samplePath(sample.id)),
  });
}

/**
 * The customer answered a quote (docs/product/quotes.md): whoever sent it and the sample's analyst
 * learn it at once, with the reason of a decline (always sent: the lab waits for this answer).
 */
export async function mailQuoteAnswered(
  tx: DbOrTx,
  mailer: Mailer,
  sample: SampleRef & { submitterName: string; assignedStaffId: number | null },
  quote: {
    status: string;
    totalMinor: number;
    currency: string;
    sentBy: number | null;
    declineReason: string | null;
  },
) {
  const ids = [...new Set([quote.sentBy, sample.assignedStaffId])].filter((id): id is number => id !== null);
  for (const id of ids) {
    const staff = await person(tx, id);
    if (!staff) continue;
    await mailer.queue(tx, staff.email, 'quoteAnswered', {
      firstName: staff.firstName,
      displayId: displaySampleId(sample.id),
      itemName: sample.itemName,
      customerName: sample.submitterName,
      accepted: quote.status === 'accepted',
      total: formatMoney(quote.totalMinor, quote.currency),
      reason: quote.declineReason,
      sampleUrl: mailer.url(samplePath(sample.id)),
    });
  }
}

/**
 * The owner accepted a quote: their invoice is ready on the sample page, with the lab's payment
 * instructions and payment link (lab settings) and the reference to quote (docs/product/quotes.md).
 */
export async function mailInvoiceIssued(
  tx: DbOrTx,
  mailer: Mailer,
  sample: SampleRef,
  quote: { id: number; totalMinor: number; currency: string },
  lab: { paymentInstructions: string | null; paymentLink: string | null } | undefined,
) {
  const owner = await person(tx, sample.userId);
  if (!owner) return;
  const displayId = displaySampleId(sample.id);
  await mailer.queue(tx, owner.email, 'invoiceIssued', {
    firstName: owner.firstName,
    displayId,
    itemName: sample.itemName,
    number: invoiceNumber(displayId, quote.id),
    total: formatMoney(quote.totalMinor, quote.currency),
    paymentInstructions: lab?.paymentInstructions ?? null,
    paymentLink: lab?.paymentLink ?? null,
    sampleUrl: mailer.url(samplePath(sample.id)),
  });
}

/**
 * A second expert decided on a report awaiting review (docs/product/valuation-report.md): its author
 * learns that it is now issued, or why it came back (always sent: it is the author's work).
 */
export async function mailReviewDecision(
  tx: DbOrTx,
  mailer: Mailer,
  sample: SampleRef,
  decision: {
    authorId: number | null;
    reviewerName: string;
    reportCode: string;
    revision: number;
    /** The send-back comment; null for an approval. */
    comment: string | null;
  },
) {
  const author = decision.authorId === null ? undefined : await person(tx, decision.authorId);
  if (!author) return;
  const data = {
    firstName: author.firstName,
    displayId: displaySampleId(sample.id),
    itemName: sample.itemName,
    reportCode: decision.reportCode,
    revision: decision.revision,
    reviewerName: decision.reviewerName,
    sampleUrl: mailer.url(samplePath(sample.id)),
  };
  if (decision.comment === null) await mailer.queue(tx, author.email, 'reportApproved', data);
  else await mailer.queue(tx, author.email, 'reportSentBack', { ...data, comment: decision.comment });
}

/** Thirty days before a value's re-valuation date: to the owner, unless they turned these mails off. */
export async function mailRevaluationDue(
  tx: DbOrTx,
  mailer: Mailer,
  sample: SampleRef & { reportCode: string },
  revalueBy: string,
) {
  const owner = await person(tx, sample.userId);
  if (!owner?.notifyStatusChanges) return;
  await mailer.queue(tx, owner.email, 'revaluationDue', {
    firstName: owner.firstName,
    displayId: displaySampleId(sample.id),
    itemName: sample.itemName,
    reportCode: sample.reportCode,
    revalueBy: dateInWords(revalueBy),
    sampleUrl: mailer.url(samplePath(sample.id)),
    unsubscribeUrl: mailer.unsubscribeUrl(owner.id),
  });
}

/** A day as the custody mails write it: 'March 3, 2026' (UTC, the day the lab recorded). */
export const mailDay = (at: Date) =>
  at.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

/** The item was checked in at the intake desk: the date and its condition (always sent: it is their property). */
export async function mailItemArrived(
  tx: DbOrTx,
  mailer: Mailer,
  sample: SampleRef,
  arrival: { at: Date; itemCount: number; condition: string },
) {
  const owner = await person(tx, sample.userId);
  if (!owner) return;
  await mailer.queue(tx, owner.email, 'itemArrived', {
    firstName: owner.firstName,
    displayId: displaySampleId(sample.id),
    itemName: sample.itemName,
    receivedOn: mailDay(arrival.at),
    itemCount: arrival.itemCount,
    condition: arrival.condition,
    sampleUrl: mailer.url(samplePath(sample.id)),
  });
}

/** The item left the lab: by courier with its tracking number, or collected in person (always sent). */
export async function mailItemReturned(
  tx: DbOrTx,
  mailer: Mailer,
  sample: SampleRef,
  r:
    | { method: 'courier'; at: Date; carrier: string; trackingNumber: string; insured: string | null }
    | { method: 'collected'; at: Date; collectedBy: string },
) {
  const owner = await person(tx, sample.userId);
  if (!owner) return;
  const common = {
    firstName: owner.firstName,
    displayId: displaySampleId(sample.id),
    itemName: sample.itemName,
    sampleUrl: mailer.url(samplePath(sample.id)),
  };
  if (r.method === 'courier')
    await mailer.queue(tx, owner.email, 'itemReturned', {
      ...common,
      returnedOn: mailDay(r.at),
      carrier: r.carrier,
      trackingNumber: r.trackingNumber,
      insured: r.insured,
    });
  else
    await mailer.queue(tx, owner.email, 'itemCollected', {
      ...common,
      collectedOn: mailDay(r.at),
      collectedBy: r.collectedBy,
    });
}
