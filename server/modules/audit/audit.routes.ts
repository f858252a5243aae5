import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AUDIT_TOO_DEEP_MESSAGE,
  auditEventList,
  auditFilters,
  auditQuery,
  auditVerification,
  MAX_AUDIT_FILTERED_OFFSET,
} from '../../../common/contracts/audit';
import { errorResponses } from '../../../common/contracts/errors';
import { TOTAL_COUNT_HEADER } from '../../../common/contracts/workflow';
import type { AppDeps } from '../../app-deps';
import { type ChainVerification, verifyAuditChain } from '../../audit/verify-chain';
import { requirePermission } from '../../plugins/auth';
import { badRequest } from '../../plugins/errors';
import { canReadAuditTrail } from '../../policies/audit';
import { sendCsv } from '../../plugins/csv-reply';
import { AUDIT_CSV, presentAuditEvent } from './audit.presenter';
import { auditExportBatches, auditPage } from './audit.queries';
import { isoDay } from '../../time';

/** The audit trail for admins: the filtered list, its CSV, and the chain's verification (docs/product/audit-trail.md). */
export function auditRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const guard = requirePermission(canReadAuditTrail);
    const errors = errorResponses(400, 401, 403);
    const filterDoc =
      'Filters: action, subjectType, subjectId, actor (an account id, `system`, or the e-mail the event names), from and to (a date, whole days in UTC, or an ISO instant).';

    app.get(
      '/api/admin/audit',
      {
        onRequest: guard,
        schema: {
          tags: ['audit'],
          summary: 'Audit events, newest first, one page; the total in X-Total-Count (admin)',
          description: `${filterDoc} pageSize 1–200 (default 50). A filtered list pages at most ${MAX_AUDIT_FILTERED_OFFSET} events deep (400 beyond: narrow the filters or export the CSV).`,
          security: [{ bearer: [] }],
          querystring: auditQuery,
          response: { 200: auditEventList, ...errors },
        },
      },
      async (request, reply) => {
        const { page, pageSize, ...filters } = request.query;
        const offset = (page - 1) * pageSize;
        const hasFilters = Object.values(filters).some((v) => v !== undefined);
        if (hasFilters && offset >= MAX_AUDIT_FILTERED_OFFSET)
          throw badRequest(AUDIT_TOO_DEEP_MESSAGE, [{ path: 'page', message: AUDIT_TOO_DEEP_MESSAGE }]);
        const { rows, total } = await auditPage(deps.db, filters, { offset, limit: pageSize });
        reply.header(TOTAL_COUNT_HEADER, String(total));
        reply.header('cache-control', 'private, no-store');
        return rows.map(presentAuditEvent);
      },
    );

    app.get(
      '/api/admin/audit.csv',
      {
        onRequest: guard,
        schema: {
          tags: ['audit'],
          summary: 'Every matching audit event as CSV, newest first, streamed (admin)',
          description: `${filterDoc} Columns: ${AUDIT_CSV.map((c) => c.header).join(', ')}; before and after as JSON.`,
          security: [{ bearer: [] }],
          querystring: auditFilters,
          produces: ['text/csv'],
          response: errors,
        },
      },
      async (request, reply) =>
        sendCsv(
          reply,
          `audit-${isoDay(new Date())}.csv`,
          AUDIT_CSV,
          auditExportBatches(deps.database, request.query, deps.config.exportBatchRows),
        ),
    );

    // One check at a time per instance: a second admin asking meanwhile gets the same answer.
    let running: Promise<ChainVerification> | null = null;
    app.get(
      '/api/admin/audit/verify',
      {
        onRequest: guard,
        schema: {
          tags: ['audit'],
          summary: 'Check the whole audit chain: {valid, events, firstBrokenId?, problem?, headHash} (admin)',
          description:
            'Recomputes every hash from the first event to the head, in batches. firstBrokenId names the first event that was changed, or that follows missing ones.',
          security: [{ bearer: [] }],
          response: { 200: auditVerification, ...errors },
        },
      },
      async (_request, reply) => {
        running ??= verifyAuditChain(deps.db).finally(() => {
          running = null;
        });
        reply.header('cache-control', 'private, no-store');
        return running;
      },
    );
  };
}
