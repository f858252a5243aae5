import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses, RECORD_CALL_ERRORS } from '../../../common/contracts/errors';
import {
  acceptQuoteRequest,
  declineQuoteRequest,
  markPaidRequest,
  quoteDraft,
  quoteSchema,
  sendQuoteRequest,
} from '../../../common/contracts/quotes';
import { sampleIdParams } from '../../../common/contracts/workflow';
import { DEFAULT_LAB_NAME } from '../../../common/domain/reports';
import { displaySampleId, personFullName } from '../../../common/domain/samples';
import { utcDay } from '../../../common/domain/turnaround';
import type { AppDeps } from '../../app-deps';
import { auditContext } from '../../audit/request';
import { currentUser, requirePermission } from '../../plugins/auth';
import { presentedJson } from '../../plugins/presented-json';
import { canMarkInvoicePaid } from '../../policies/quotes';
import { canListLabSamples } from '../../policies/samples';
import { readLabLogo, renderInvoicePdf } from './invoice-pdf';
import {
  answerQuote,
  draftQuote,
  invoiceOf,
  markInvoicePaid,
  sampleToPrice,
  sendQuote,
  withdrawQuote,
} from './quote-flow';
import { invoiceNumber } from '../../../common/domain/quotes';
import { presentDraft, presentQuote } from './quotes.presenter';

/** Quotes and invoices (docs/product/quotes.md). */
export function quotesRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const labOnly = requirePermission(canListLabSamples);
    const common = { serializerCompiler: presentedJson };

    app.get(
      '/api/staff/samples/:id/quote/draft',
      {
        ...common,
        onRequest: labOnly,
        schema: {
          tags: ['quotes'],
          summary:
            'The quote the price list suggests for this sample (its services and urgency); nothing is stored',
          security: [{ bearer: [] }],
          params: sampleIdParams,
          response: { 200: quoteDraft, ...RECORD_CALL_ERRORS },
        },
      },
      async (request) => {
        const sample = await sampleToPrice(deps.db, currentUser(request), request.params.id);
        return presentDraft(await draftQuote(deps.db, sample));
      },
    );

    app.post(
      '/api/staff/samples/:id/quote',
      {
        ...common,
        onRequest: labOnly,
        schema: {
          tags: ['quotes'],
          summary:
            'Send a quote (admin, or the assigned staff member); one still waiting for an answer is replaced',
          security: [{ bearer: [] }],
          params: sampleIdParams,
          body: sendQuoteRequest,
          response: { 201: quoteSchema, ...RECORD_CALL_ERRORS },
        },
      },
      async (request, reply) => {
        const quote = await sendQuote(
          deps,
          currentUser(request),
          request.params.id,
          request.body,
          auditContext(request),
        );
        return reply.code(201).send(presentQuote(quote));
      },
    );

    app.post(
      '/api/staff/samples/:id/quote/withdraw',
      {
        ...common,
        onRequest: labOnly,
        schema: {
          tags: ['quotes'],
          summary: 'Withdraw the quote that is still waiting for an answer',
          security: [{ bearer: [] }],
          params: sampleIdParams,
          response: { 200: quoteSchema, ...RECORD_CALL_ERRORS },
        },
      },
      async (request) =>
        presentQuote(
          await withdrawQuote(deps, currentUser(request), request.params.id, auditContext(request)),
        ),
    );

    app.post(
      '/api/samples/:id/quote/accept',
      {
        ...common,
        schema: {
          tags: ['quotes'],
          summary: "Accept the sample's quote (the owner); the expected completion date counts from now",
          security: [{ bearer: [] }],
          params: sampleIdParams,
          body: acceptQuoteRequest,
          response: { 200: quoteSchema, ...RECORD_CALL_ERRORS },
        },
      },
      async (request) =>
        presentQuote(
          await answerQuote(
            deps,
            currentUser(request),
            request.params.id,
            { accept: true, quoteId: request.body?.quoteId },
            auditContext(request),
          ),
        ),
    );

    app.post(
      '/api/samples/:id/quote/decline',
      {
        ...common,
        schema: {
          tags: ['quotes'],
          summary: "Decline the sample's quote (the owner), with an optional reason",
          security: [{ bearer: [] }],
          params: sampleIdParams,
          body: declineQuoteRequest,
          response: { 200: quoteSchema, ...RECORD_CALL_ERRORS },
        },
      },
      async (request) =>
        presentQuote(
          await answerQuote(
            deps,
            currentUser(request),
            request.params.id,
            {
              accept: false,
              reason: request.body?.reason ?? null,
              quoteId: request.body?.quoteId,
            },
            auditContext(request),
          ),
        ),
    );

    app.get(
      '/api/samples/:id/invoice',
      {
        schema: {
          tags: ['quotes'],
          summary: 'The invoice PDF of the accepted quote (owner, staff, admin) as Invoice-VAL-0001-Q1.pdf',
          security: [{ bearer: [] }],
          params: sampleIdParams,
          response: errorResponses(400, 401, 404),
        },
      },
      async (request, reply) => {
        const { sample, quote, lab, owner } = await invoiceOf(
          deps.db,
          currentUser(request),
          request.params.id,
        );
        const displayId = displaySampleId(sample.id);
        const number = invoiceNumber(displayId, quote.id);
        const pdf = await renderInvoicePdf({
          lab: {
            name: lab?.labName?.trim() || DEFAULT_LAB_NAME,
            address: lab?.address ?? null,
            phone: lab?.phone ?? null,
            email: lab?.email ?? null,
            website: lab?.website ?? null,
            certificationNumber: lab?.certificationNumber ?? null,
            logo: await readLabLogo(deps.storage, lab?.logo),
            paymentInstructions: lab?.paymentInstructions ?? null,
            paymentLink: lab?.paymentLink ?? null,
          },
          number,
          issuedOn: utcDay(quote.answeredAt ?? quote.sentAt),
          customer: {
            name: personFullName(owner ?? null) || sample.submitterName,
            email: owner?.email ?? sample.submitterEmail,
          },
          sample: { displayId, itemName: sample.itemName },
          lines: quote.lines,
          totalMinor: quote.totalMinor,
          currency: quote.currency,
          paid: quote.paidAt ? { on: utcDay(quote.paidAt), reference: quote.paidReference ?? '' } : null,
        });
        return (
          reply
            .header('content-type', 'application/pdf')
            .header('content-disposition', `attachment; filename="Invoice-${number}.pdf"`)
            .header('cache-control', 'private, no-store')
            // Binary answers bypass the JSON response schemas, which only describe the error bodies.
            .send(pdf as unknown as { message: string })
        );
      },
    );

    app.post(
      '/api/admin/samples/:id/paid',
      {
        ...common,
        onRequest: requirePermission(canMarkInvoicePaid),
        schema: {
          tags: ['quotes'],
          summary: "Mark the sample's invoice paid with the payment's reference (admin)",
          security: [{ bearer: [] }],
          params: sampleIdParams,
          body: markPaidRequest,
          response: { 200: quoteSchema, ...RECORD_CALL_ERRORS },
        },
      },
      async (request) =>
        presentQuote(
          await markInvoicePaid(
            deps,
            currentUser(request),
            request.params.id,
            request.body.reference,
            auditContext(request),
          ),
        ),
    );
  };
}
