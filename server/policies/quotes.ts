import { type Actor, isAdmin, isSelf } from './actor';
import { canReadSample, canWorkOnSample, type SampleAccess } from './samples';

// Who may do what with a sample's quote and invoice: docs/product/quotes.md and
// docs/product/roles-and-access.md. Whoever may not read the sample is told 404.

/** Pricing a sample (sending, replacing, withdrawing its quote): an admin, or the assigned staff member. */
export const canSendQuote = (actor: Actor, sample: SampleAccess) => canWorkOnSample(actor, sample);

/** Accepting or declining: the customer who owns the sample, nobody else (not even an admin). */
export const canAnswerQuote = (actor: Actor, sample: SampleAccess) => isSelf(actor, sample.userId);

/** Downloading the invoice PDF: the owner, any staff member and admins. */
export const canDownloadInvoice = (actor: Actor, sample: SampleAccess) => canReadSample(actor, sample);

/** Marking an invoice paid: admins only. */
export const canMarkInvoicePaid = (actor: Actor) => isAdmin(actor);
