import { DEFAULT_CURRENCY } from '../../../common/domain/money';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse, idParams } from '../../../common/contracts/errors';
import {
  issueReportBody,
  issueReportResponse,
  reportCodeParams,
  revokeReportBody,
  revokeReportResponse,
} from '../../../common/contracts/reports';
import { normalizeReportCode } from '../../../common/domain/reports';
import type { AppDeps } from '../../app-deps';
import { auditContext } from '../../audit/request';
import { currentUser, requirePermission } from '../../plugins/auth';
import { notFound } from '../../plugins/errors';
import { sendPdf } from '../../plugins/pdf-reply';
import { canDownloadReport, canIssueReports, canRevokeReport } from '../../policies/samples';
import { reportDefaultsResponse } from '../../../common/contracts/appraisal';
import { appraisalTerms } from '../../../common/domain/appraisal';
import { issueReport } from './issue-report';
import { REPORT_NOT_FOUND, revokeReport } from './revoke-report';
import { previewReport } from './preview-report';
import { registerRevaluationJob } from './revaluation.job';
import { findSampleByReportCode, latestIssuedRevision } from './reports.queries';
import { readLabSettings } from '../../db/lab-settings';

/** Issuing reports, downloading the stored PDF, and withdrawing a report (docs/product/roles-and-access.md, reports-and-verification.md). */
export function reportsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    registerRevaluationJob(deps.jobs, { db: deps.db, mailer: deps.mailer });
    const refusals = {
      400: errorResponse,
      401: errorResponse,
      403: errorResponse,
      404: errorResponse,
      409: errorResponse,
      500: errorResponse,
    };
    const issueSchema = {
      tags: ['reports'],
      params: idParams,
      body: issueReportBody,
      response: { 200: issueReportResponse, ...refusals },
    };
    const description =
      "Admin or the assigned staff member. Replaces the sample's elements, renders and stores the PDF as the next revision. " +
      "Answers action 'generated' for a first issue, 'updated' when the sample already had a code.";

    for (const path of ['/api/samples/:id/report', '/api/staff/samples/:id/report'] as const) {
      app.post(
        path,
        {
          schema: {
            ...issueSchema,
            summary:
              path === '/api/samples/:id/report'
                ? 'Generate the analysis report (customer endpoint: refused with 403 for customers)'
                : 'Generate the analysis report (staff endpoint)',
            description,
          },
        },
        async (request) =>
          issueReport(deps, currentUser(request), request.params.id, request.body, request.ip),
      );
    }

    app.get(
      '/api/staff/report-defaults',
      {
        onRequest: requirePermission(canIssueReports),
        schema: {
          tags: ['reports'],
          summary:
            "What the report editor starts from: the lab's limiting conditions, currency and re-valuation terms (staff, admin)",
          security: [{ bearer: [] }],
          response: { 200: reportDefaultsResponse, 401: errorResponse, 403: errorResponse },
        },
      },
      async () => {
        const settings = await readLabSettings(deps.db);
        const { limitingConditionsTemplate, revalueAfterMonths, taxFilingWindowMonths } =
          appraisalTerms(settings);
        return {
          limitingConditionsTemplate,
          currency: settings?.currency ?? DEFAULT_CURRENCY,
          revalueAfterMonths,
          taxFilingWindowMonths,
        };
      },
    );

    app.post(
      '/api/staff/samples/:id/report/preview',
      {
        schema: {
          ...issueSchema,
          summary: 'Preview the report PDF a draft would issue, marked as a draft (staff endpoint)',
          description:
            'Whoever may issue the report (admin or the assigned staff member), with the same body and checks as issuing. ' +
            'Answers an unsigned application/pdf with "DRAFT — not issued" on every page; stores nothing, draws no code, makes no revision.',
          // The PDF itself bypasses the response schemas, which describe the refusals.
          response: refusals,
        },
      },
      async (request, reply) => {
        const { pdf, fileName } = await previewReport(
          deps,
          currentUser(request),
          request.params.id,
          request.body,
        );
        return sendPdf(reply, pdf, { name: fileName, disposition: 'inline' });
      },
    );

    app.get(
      '/api/report/:reportCode/pdf',
      {
        config: { apiKeyScope: 'reports:read' },
        schema: {
          tags: ['reports'],
          summary: 'Download the current revision of an issued report as Report-{code}.pdf',
          description: 'The owner, staff or admin. Serves the stored bytes of the current revision.',
          params: reportCodeParams,
          response: { 401: errorResponse, 404: errorResponse },
        },
      },
      async (request, reply) => {
        const user = currentUser(request);
        const code = normalizeReportCode(request.params.reportCode);
        const sample = await findSampleByReportCode(deps.db, code);
        // Never reveal that someone else's report exists.
        if (!sample || !canDownloadReport(user, sample)) throw notFound(REPORT_NOT_FOUND);
        // Only a public revision: a newer one still awaiting review stays with the lab.
        const revision = await latestIssuedRevision(deps.db, code);
        if (!revision) throw notFound(REPORT_NOT_FOUND);
        const bytes = await deps.storage.read(revision.storageKey);
        return sendPdf(
          reply,
          bytes,
          { name: `Report-${code}.pdf`, disposition: 'attachment' },
          { 'x-report-revision': String(revision.revision) },
        );
      },
    );

    app.post(
      '/api/admin/reports/:reportCode/revoke',
      {
        onRequest: requirePermission(canRevokeReport),
        schema: {
          tags: ['reports'],
          summary: 'Withdraw an issued report, with a reason (admin)',
          description: 'Verification then answers the report as revoked, with the reason and the date.',
          params: reportCodeParams,
          body: revokeReportBody,
          response: {
            200: revokeReportResponse,
            400: errorResponse,
            401: errorResponse,
            403: errorResponse,
            404: errorResponse,
            409: errorResponse,
          },
        },
      },
      async (request) =>
        revokeReport(
          deps,
          currentUser(request),
          auditContext(request),
          request.params.reportCode,
          request.body.reason,
        ),
    );
  };
}
