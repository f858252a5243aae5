import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses, idParams, RECORD_CALL_ERRORS } from '../../../common/contracts/errors';
import { issueReportResponse } from '../../../common/contracts/reports';
import {
  awaitingReviewList,
  rejectReportBody,
  reportReview,
  reportReviewResponse,
  reviewHistory,
} from '../../../common/contracts/review';
import type { AppDeps } from '../../app-deps';
import { currentUser, requirePermission } from '../../plugins/auth';
import { canReviewReports } from '../../policies/samples';
import { sendPdf } from '../../plugins/pdf-reply';
import {
  approveReport,
  listAwaitingReview,
  readDraftPdf,
  readReview,
  readReviewHistory,
  rejectReport,
} from './review-report';

/** The second review of a report: approve, send back, read, and the reviewer's queue (docs/product/valuation-report.md). */
export function reviewRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const guard = requirePermission(canReviewReports);

    app.post(
      '/api/staff/samples/:id/report/approve',
      {
        onRequest: guard,
        schema: {
          tags: ['reports'],
          summary: 'Approve the revision awaiting review: it is issued (staff or admin, never its author)',
          description:
            'Re-renders and signs the PDF naming "Analyzed By" (the author) and "Reviewed By" (the caller), makes the revision public and mails the customer. 403 for the author, 409 when nothing awaits review.',
          params: idParams,
          response: { 200: issueReportResponse, ...RECORD_CALL_ERRORS },
        },
      },
      async (request) => approveReport(deps, currentUser(request), request.params.id, request.ip),
    );

    app.post(
      '/api/staff/samples/:id/report/reject',
      {
        onRequest: guard,
        schema: {
          tags: ['reports'],
          summary:
            'Send the revision awaiting review back to its author with a comment (staff or admin, never its author)',
          description: 'Nothing public changes. The author sees the comment and may issue again.',
          params: idParams,
          body: rejectReportBody,
          response: { 200: reportReview, ...RECORD_CALL_ERRORS },
        },
      },
      async (request) =>
        rejectReport(deps, currentUser(request), request.params.id, request.body, request.ip),
    );

    app.get(
      '/api/staff/samples/:id/report/review',
      {
        onRequest: guard,
        schema: {
          tags: ['reports'],
          summary:
            "The sample's revision awaiting review or sent back, with what was submitted (staff, admin)",
          description:
            'null when the newest revision is issued (or there is none). canReview: whether the caller may approve it.',
          params: idParams,
          response: { 200: reportReviewResponse, ...RECORD_CALL_ERRORS },
        },
      },
      async (request) => readReview(deps, currentUser(request), request.params.id),
    );

    app.get(
      '/api/staff/samples/:id/report/review/pdf',
      {
        onRequest: guard,
        schema: {
          tags: ['reports'],
          summary:
            'The PDF of the revision awaiting review or sent back, as its approval would print it, marked as a draft (staff, admin)',
          description:
            'Drawn on request: unsigned, "Reviewed By" still awaiting, "DRAFT — not issued" on every page. 409 when the newest revision is issued (or there is none).',
          params: idParams,
          // The PDF itself bypasses the response schemas, which describe the refusals.
          response: RECORD_CALL_ERRORS,
        },
      },
      async (request, reply) => {
        const { pdf, fileName } = await readDraftPdf(deps, currentUser(request), request.params.id);
        return sendPdf(reply, pdf, { name: fileName, disposition: 'inline' });
      },
    );

    app.get(
      '/api/staff/samples/:id/report/review-history',
      {
        onRequest: guard,
        schema: {
          tags: ['reports'],
          summary: "Every approval and send-back of the sample's reports, newest first (staff, admin)",
          description:
            'Who decided, when, on which revision, and the send-back comment; kept when the author re-issues. Never shown to the owner.',
          params: idParams,
          response: { 200: reviewHistory, ...RECORD_CALL_ERRORS },
        },
      },
      async (request) => readReviewHistory(deps, currentUser(request), request.params.id),
    );

    app.get(
      '/api/staff/reviews',
      {
        onRequest: guard,
        schema: {
          tags: ['reports'],
          summary: 'Revisions awaiting review that the caller may approve (not their own), oldest first',
          response: { 200: awaitingReviewList, ...errorResponses(401, 403) },
        },
      },
      async (request) => listAwaitingReview(deps, currentUser(request)),
    );
  };
}
