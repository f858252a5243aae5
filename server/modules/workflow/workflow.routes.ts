import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse as errorBody } from '../../../common/contracts/errors';
import { sampleSchema } from '../../../common/contracts/samples';
import {
  ANALYTICS_WEEKS,
  ASSIGNEE_ROLE_MESSAGE,
  adminAnalytics,
  assignRequest,
  pageQuery,
  sampleIdParams,
  sampleList,
  statusUpdateRequest,
  workList,
  workListQuery,
  TOTAL_COUNT_HEADER,
} from '../../../common/contracts/workflow';
import { INACTIVE_STATUSES, normalizeStatus, SAMPLE_STATUSES } from '../../../common/domain/samples';
import type { AppDeps } from '../../app-deps';
import { recordAudit } from '../../audit/audit';
import { auditContext } from '../../audit/request';
import { currentUser, requirePermission } from '../../plugins/auth';
import { badRequest, forbidden, notFound } from '../../plugins/errors';
import { presentedJson } from '../../plugins/presented-json';
import {
  canAssignSample,
  canBeAssignedSamples,
  canListLabSamples,
  canWorkOnSample,
  seesEverySample,
} from '../../policies/samples';
import { presentProgress, presentSample, presentSampleListItem } from '../samples/samples.presenter';
import { mailSampleAssigned, mailStatusChanged } from '../../mail/notifications';
import { presentWorkListItem } from './workflow.presenter';
import {
  assignSample,
  findSample,
  findSampleForUpdate,
  findUserForAssignment,
  listAllSamples,
  listAssignedSamples,
  locatePage,
  openSamplesProgress,
  type SampleListRow,
  sampleAnalytics,
  samplesBelow,
  setSampleStatus,
} from './workflow.queries';

const SAMPLE_NOT_FOUND = 'Sample not found';

const present = (r: SampleListRow) =>
  presentSampleListItem(
    r.sample,
    { firstName: r.userFirstName, lastName: r.userLastName },
    { firstName: r.staffFirstName, lastName: r.staffLastName },
    r.firstPhoto,
  );

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody };

/** Staff and admin sample workflow: /api/staff/samples*, /api/admin/samples*, /api/admin/analytics. */
export function workflowRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const labOnly = requirePermission(canListLabSamples);

    app.get(
      '/api/staff/samples',
      {
        onRequest: labOnly,
        serializerCompiler: presentedJson,
        schema: {
          tags: ['workflow'],
          summary: 'The work list: samples assigned to the caller (every sample for an admin), newest first',
          description:
            'Each row carries the list fields (id, item, category, status, urgency, client and representative names, dates, report code) with user and assignedStaff names; the full record is GET /api/samples/{id}. At most 500 rows per page (pageSize 1–500, default 500); the total in X-Total-Count.',
          security: [{ bearer: [] }],
          querystring: workListQuery,
          response: { 200: workList, ...errors },
        },
      },
      async (request, reply) => {
        const user = currentUser(request);
        const { page, pageSize } = request.query;
        const window = { offset: (page - 1) * pageSize, limit: pageSize };
        const { rows, total } = seesEverySample(user)
          ? await listAllSamples(deps.db, window)
          : await listAssignedSamples(deps.db, user.id, window);
        reply.header(TOTAL_COUNT_HEADER, String(total));
        return rows.map(presentWorkListItem);
      },
    );

    app.post(
      '/api/staff/samples/:id/status',
      {
        onRequest: labOnly,
        config: { apiKeyScope: 'samples:write' },
        schema: {
          tags: ['workflow'],
          summary: 'Change a sample status (admin, or the assigned staff member); writes the history',
          security: [{ bearer: [] }],
          params: sampleIdParams,
          body: statusUpdateRequest,
          response: { 200: sampleSchema, ...errors },
        },
      },
      async (request) => {
        const user = currentUser(request);
        const { status, comment } = request.body;
        const row = await deps.db.transaction(async (tx) => {
          const sample = await findSampleForUpdate(tx, request.params.id);
          if (!sample) throw notFound(SAMPLE_NOT_FOUND);
          if (!canWorkOnSample(user, sample))
            throw forbidden('Only the assigned staff member or an admin can change this sample');
          const updated = await setSampleStatus(tx, {
            sampleId: sample.id,
            status,
            comment: comment ?? null,
            updatedBy: user.id,
          });
          // The customer's mail commits (or rolls back) with the status (docs/product/mail.md).
          if (sample.status !== status)
            await mailStatusChanged(tx, deps.mailer, sample, status, comment ?? null);
          // Every call writes a history row, so every call is recorded (a comment alone too).
          await recordAudit(tx, {
            ...auditContext(request),
            action: 'sample.status_changed',
            subject: { type: 'sample', id: sample.id },
            before: { status: sample.status },
            after: { status, comment: comment ?? null },
          });
          return updated;
        });
        return presentSample(row);
      },
    );

    app.get(
      '/api/admin/samples',
      {
        onRequest: labOnly,
        config: { apiKeyScope: 'samples:read' },
        serializerCompiler: presentedJson,
        schema: {
          tags: ['workflow'],
          summary: 'Every sample, newest first, one page; the total in X-Total-Count',
          security: [{ bearer: [] }],
          querystring: pageQuery,
          response: { 200: sampleList, ...errors },
        },
      },
      async (request, reply) => {
        const { page, pageSize } = request.query;
        const at = await locatePage(deps.db, (page - 1) * pageSize);
        reply.header(TOTAL_COUNT_HEADER, String(at.total));
        reply.header('cache-control', 'private, no-store');
        if (at.upperId === null) return [];
        const rows = await samplesBelow(deps.db, at.upperId, at.skip, pageSize);
        return rows.map(present);
      },
    );

    app.post(
      '/api/admin/samples/:id/assign',
      {
        onRequest: requirePermission(canAssignSample),
        schema: {
          tags: ['workflow'],
          summary: 'Assign a sample to a staff member or admin',
          security: [{ bearer: [] }],
          params: sampleIdParams,
          body: assignRequest,
          response: { 200: sampleSchema, ...errors },
        },
      },
      async (request) => {
        const { staffId } = request.body;
        const sample = await findSample(deps.db, request.params.id);
        if (!sample) throw notFound(SAMPLE_NOT_FOUND);
        const assignee = await findUserForAssignment(deps.db, staffId);
        if (!assignee || !canBeAssignedSamples(assignee))
          throw badRequest(ASSIGNEE_ROLE_MESSAGE, [{ path: 'staffId', message: ASSIGNEE_ROLE_MESSAGE }]);
        const row = await deps.db.transaction(async (tx) => {
          const updated = await assignSample(tx, sample.id, assignee.id);
          if (updated && sample.assignedStaffId !== assignee.id) {
            await mailSampleAssigned(tx, deps.mailer, updated, assignee.id);
            await recordAudit(tx, {
              ...auditContext(request),
              action: 'sample.assigned',
              subject: { type: 'sample', id: sample.id },
              before: { assignedStaffId: sample.assignedStaffId },
              after: { assignedStaffId: assignee.id },
            });
          }
          return updated;
        });
        if (!row) throw notFound(SAMPLE_NOT_FOUND);
        return presentSample(row);
      },
    );

    app.get(
      '/api/admin/analytics',
      {
        onRequest: labOnly,
        schema: {
          tags: ['workflow'],
          summary: `Dashboard counters, samples by status and submissions per week (last ${ANALYTICS_WEEKS} weeks)`,
          security: [{ bearer: [] }],
          response: { 200: adminAnalytics, ...errors },
        },
      },
      async () => {
        const { byStatus, weekly } = await sampleAnalytics(deps.db, ANALYTICS_WEEKS);
        const now = new Date();
        const overdueSamples = (await openSamplesProgress(deps.db)).filter(
          (r) => presentProgress(r, now).overdue,
        ).length;
        const counts = new Map<string, number>(SAMPLE_STATUSES.map((s) => [s, 0]));
        for (const r of byStatus) {
          const s = normalizeStatus(r.status);
          counts.set(s, (counts.get(s) ?? 0) + Number(r.count));
        }
        const total = [...counts.values()].reduce((a, b) => a + b, 0);
        const inactive = INACTIVE_STATUSES.reduce((a, s) => a + (counts.get(s) ?? 0), 0);
        return {
          totalSamples: total,
          activeSamples: total - inactive,
          completedSamples: counts.get('completed') ?? 0,
          overdueSamples,
          byStatus: SAMPLE_STATUSES.map((status) => ({ status, count: counts.get(status) ?? 0 })),
          weekly,
        };
      },
    );
  };
}
