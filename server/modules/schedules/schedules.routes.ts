import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { COLLECTION_MESSAGES } from '../../../common/contracts/collections';
import { CREDENTIAL_MEDIA_TYPE } from '../../../common/contracts/credentials';
import { errorResponse, errorResponses, idParams } from '../../../common/contracts/errors';
import {
  SCHEDULE_MESSAGES,
  scheduleIssued,
  scheduleSummary,
  scheduleVerification,
} from '../../../common/contracts/schedules';
import { verifyCodeParams } from '../../../common/contracts/verification';
import { DEFAULT_LAB_NAME, normalizeReportCode, REPORT_CODE_PATTERN } from '../../../common/domain/reports';
import type { AppDeps } from '../../app-deps';
import { auditContext } from '../../audit/request';
import { readLabSettings } from '../../db/lab-settings';
import { currentUser, requirePermission } from '../../plugins/auth';
import { notFound } from '../../plugins/errors';
import { sendPdf } from '../../plugins/pdf-reply';
import type { Actor } from '../../policies/actor';
import { canReadCollection } from '../../policies/collections';
import { canIssueSchedules } from '../../policies/schedules';
import { findCollection } from '../collections/collections.queries';
import { createVerificationLogger } from '../verification/verification-log';
import { VERIFY_RATE_LIMIT } from '../verification/verification.routes';
import { issueSchedule } from './issue-schedule';
import { signScheduleCredential } from './schedule-credential';
import { presentScheduleSummary, presentScheduleVerification } from './schedules.presenter';
import {
  findScheduleByCode,
  latestScheduleOf,
  revokedReportCodes,
  type ScheduleRow,
} from './schedules.queries';

/**
 * Schedules of collections (docs/product/schedules.md, api.md): staff and admins issue one; whoever
 * may read the collection reads its latest schedule and PDF; anyone verifies a schedule's code and
 * fetches its credential, and never sees a value.
 */
export function schedulesRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const log = createVerificationLogger(deps.db, (err) =>
      app.log.warn({ err }, 'verification log not written'),
    );
    app.addHook('onClose', async () => log.flush());
    const rateLimit = deps.config.rateLimits ? { rateLimit: VERIFY_RATE_LIMIT } : {};

    /** The collection's latest schedule, for someone who may read the collection; else 404. */
    const latestReadable = async (actor: Actor, collectionId: number): Promise<ScheduleRow> => {
      const collection = await findCollection(deps.db, collectionId);
      if (!collection || !canReadCollection(actor, collection)) throw notFound(COLLECTION_MESSAGES.notFound);
      const row = await latestScheduleOf(deps.db, collectionId);
      if (!row) throw notFound(SCHEDULE_MESSAGES.noneIssued);
      return row;
    };

    /** A schedule by its public code (trimmed, upper-cased), or 404. */
    const byCode = async (raw: string): Promise<ScheduleRow> => {
      const code = normalizeReportCode(raw);
      const row = REPORT_CODE_PATTERN.test(code) ? await findScheduleByCode(deps.db, code) : undefined;
      if (!row) throw notFound(SCHEDULE_MESSAGES.notFound);
      return row;
    };

    app.post(
      '/api/staff/collections/:id/schedule',
      {
        onRequest: requirePermission(canIssueSchedules),
        schema: {
          tags: ['schedules'],
          summary: "Issue a collection's schedule (staff, admin): a signed PDF with its own code",
          description:
            'Every item of the collection must have an issued report that is not withdrawn, else 409 naming the items still without one. Each call issues a new schedule with a new code; the newest is the current one.',
          security: [{ bearer: [] }],
          params: idParams,
          response: { 200: scheduleIssued, ...errorResponses(400, 401, 403, 404, 409) },
        },
      },
      async (request) => issueSchedule(deps, currentUser(request), auditContext(request), request.params.id),
    );

    app.get(
      '/api/collections/:id/schedule',
      {
        config: { apiKeyScope: 'reports:read' },
        schema: {
          tags: ['schedules'],
          summary: "The collection's current (latest) schedule: its code, date, item count and links",
          description: 'The owner, staff and admins. 404 when none has been issued.',
          security: [{ bearer: [] }],
          params: idParams,
          response: { 200: scheduleSummary, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) =>
        presentScheduleSummary(
          await latestReadable(currentUser(request), request.params.id),
          deps.config.publicUrl,
        ),
    );

    app.get(
      '/api/collections/:id/schedule/pdf',
      {
        config: { apiKeyScope: 'reports:read' },
        schema: {
          tags: ['schedules'],
          summary: "Download the collection's current schedule as Schedule-{code}.pdf",
          description: 'The owner, staff and admins. Serves the stored, signed bytes.',
          security: [{ bearer: [] }],
          params: idParams,
          response: { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse },
        },
      },
      async (request, reply) => {
        const row = await latestReadable(currentUser(request), request.params.id);
        const bytes = await deps.storage.read(row.storageKey);
        return sendPdf(reply, bytes, { name: `Schedule-${row.code}.pdf`, disposition: 'attachment' });
      },
    );

    app.get(
      '/api/schedules/verify/:code',
      {
        config: { public: true, ...rateLimit },
        schema: {
          tags: ['verification'],
          summary: 'Verify a schedule code (public, rate limited per address): its items, never a value',
          description:
            'Code trimmed and upper-cased. Lists each item with its report code and whether that report is still issued; says when a newer schedule of the same collection replaced it. 404 {message:"Schedule not found"}.',
          params: verifyCodeParams,
          response: { 200: scheduleVerification, 400: errorResponse, 404: errorResponse, 429: errorResponse },
        },
      },
      async (request) => {
        let row: ScheduleRow;
        try {
          row = await byCode(request.params.code);
        } catch (err) {
          log.record({ code: request.params.code, result: 'schedule_not_found', ip: request.ip });
          throw err;
        }
        const [lab, revoked, newest] = await Promise.all([
          readLabSettings(deps.db),
          revokedReportCodes(
            deps.db,
            row.items.map((i) => i.reportCode),
          ),
          latestScheduleOf(deps.db, row.collectionId),
        ]);
        log.record({ code: row.code, result: 'schedule_found', ip: request.ip });
        return presentScheduleVerification(row, lab?.labName?.trim() || DEFAULT_LAB_NAME, revoked, newest);
      },
    );

    app.get(
      '/api/schedules/verify/:code/credential',
      {
        config: { public: true, ...rateLimit },
        schema: {
          tags: ['verification'],
          summary: 'A schedule as a W3C Verifiable Credential (public, application/vc+jwt)',
          description:
            'A JWT (typ vc+jwt, ES256) whose keys are at /.well-known/jwks.json; its subject lists the items by sample id and report code, never a value. 404 {message:"Schedule not found"}.',
          params: verifyCodeParams,
          response: { 400: errorResponse, 404: errorResponse, 429: errorResponse },
        },
      },
      async (request, reply) => {
        const row = await byCode(request.params.code);
        const lab = await readLabSettings(deps.db);
        const jwt = await signScheduleCredential(
          deps.keys.credentials,
          { url: deps.config.publicUrl, name: lab?.labName?.trim() || DEFAULT_LAB_NAME },
          { code: row.code, issuedAt: row.issuedAt, pdfSha256: row.pdfSha256, items: row.items },
        );
        return (
          reply
            .type(CREDENTIAL_MEDIA_TYPE)
            .header('content-disposition', `attachment; filename="Schedule-${row.code}.jwt"`)
            .header('cache-control', 'no-store')
            // A JWT, not JSON: the response schemas above only describe the error bodies.
            .send(jwt as unknown as { message: string })
        );
      },
    );
  };
}
