import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse as errorBody } from '../../../common/contracts/errors';
import { sampleSchema } from '../../../common/contracts/samples';
import {
  ANALYTICS_WEEKS,
  adminAnalytics,
  assignRequest,
  MAX_ADMIN_PAGE_SIZE,
  ADMIN_PAGE_SIZE,
  sampleIdParams,
  sampleList,
  statusUpdateRequest,
  workList,
  WORK_LIST_PAGE_SIZE,
  TOTAL_COUNT_HEADER,
} from '../../../common/contracts/workflow';
import {
  DEEP_PAGE_MESSAGE,
  MAX_PAGED_ROWS,
  type SampleFilters,
  sampleExportQuery,
  sampleListQuery,
  TOTAL_ESTIMATED_HEADER,
  workListCounts,
} from '../../../common/contracts/sample-search';
import {
  clientLabel,
  displaySampleId,
  normalizeStatus,
  personFullName,
} from '../../../common/domain/samples';
import type { AppDeps } from '../../app-deps';
import { auditContext } from '../../audit/request';
import { currentUser, requirePermission } from '../../plugins/auth';
import { badRequest } from '../../plugins/errors';
import { presentedJson } from '../../plugins/presented-json';
import { canAssignSample, canListLabSamples, seesEverySample } from '../../policies/samples';
import { presentSample, presentSampleListItem } from '../samples/samples.presenter';
import { presentAnalytics, presentWorkListItem } from './workflow.presenter';
import { assignSample } from './assign-sample';
import { updateSampleStatus } from './update-status';
import { type CsvColumn, sendCsv } from '../../plugins/csv-reply';
import { isoDateOrNull, isoDay } from '../../time';
import {
  countSamples,
  countWorkList,
  exportBatches,
  prepareFilters,
  isPlainView,
  type SampleScope,
  searchLabList,
  searchWorkList,
} from './sample-search.queries';
import {
  listAllSamples,
  listAssignedSamples,
  locatePage,
  openSamplesProgress,
  EXPORT_AT,
  type SampleExportRow,
  type SampleListRow,
  sampleAnalytics,
  samplesBelow,
} from './workflow.queries';

const present = (r: SampleListRow) =>
  presentSampleListItem(
    r.sample,
    { firstName: r.userFirstName, lastName: r.userLastName },
    { firstName: r.staffFirstName, lastName: r.staffLastName },
    r.firstPhoto,
  );

const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody };

/** A filtered or sorted list pages through its first MAX_PAGED_ROWS rows only (no deep OFFSET). */
function checkDepth(offset: number) {
  if (offset >= MAX_PAGED_ROWS)
    throw badRequest(DEEP_PAGE_MESSAGE, [{ path: 'page', message: DEEP_PAGE_MESSAGE }]);
}

function setTotal(
  reply: { header(name: string, value: string): unknown },
  counted: { total: number; estimated: boolean },
  seen: { window: { offset: number; limit: number }; rows: number },
) {
  // An estimate is never below what the page itself shows (one more when the page is full).
  const least = seen.window.offset + seen.rows + (seen.rows === seen.window.limit ? 1 : 0);
  const total = counted.estimated ? Math.max(counted.total, least) : counted.total;
  reply.header(TOTAL_COUNT_HEADER, String(total));
  if (counted.estimated) reply.header(TOTAL_ESTIMATED_HEADER, 'true');
}

/** One column of an export row, by name. */
const c = (r: SampleExportRow, key: keyof typeof EXPORT_AT): string | null => r[EXPORT_AT[key]] ?? null;
/** Today's UTC day, worked out again at most once a second (not for each of a million rows). */
let today = { at: 0, day: '' };
function utcToday(): string {
  const now = Date.now();
  if (now - today.at >= 1000) today = { at: now, day: isoDay(new Date(now)) };
  return today.day;
}

/** The lab list's CSV columns (docs/product/api.md), read from the export's text rows. */
const CSV_COLUMNS: CsvColumn<SampleExportRow>[] = [
  { header: 'ID', value: (r) => displaySampleId(Number(c(r, 'id'))) },
  { header: 'Item', value: (r) => c(r, 'itemName') },
  { header: 'Category', value: (r) => c(r, 'category') },
  { header: 'Status', value: (r) => normalizeStatus(c(r, 'status')) },
  {
    header: 'Client',
    value: (r) =>
      clientLabel({
        representativeName: c(r, 'representativeName'),
        clientName: c(r, 'clientName'),
        submitterName: c(r, 'submitterName') ?? '',
        user: { firstName: c(r, 'userFirstName'), lastName: c(r, 'userLastName') },
      }),
  },
  { header: 'Client e-mail', value: (r) => c(r, 'submitterEmail') },
  {
    header: 'Assigned staff',
    value: (r) => personFullName({ firstName: c(r, 'staffFirstName'), lastName: c(r, 'staffLastName') }),
  },
  { header: 'Submitted', value: (r) => isoDateOrNull(c(r, 'submissionDate')) },
  { header: 'Expected completion', value: (r) => c(r, 'expectedCompletion') },
  {
    header: 'Overdue',
    // The rule of the lab list's overdue flag (common/domain/turnaround.ts) on the expected day the
    // database keeps by that same rule: not completed and the day is past.
    value: (r) =>
      c(r, 'status') !== 'completed' && utcToday() > (c(r, 'expectedCompletion') ?? '') ? 'yes' : 'no',
  },
  { header: 'Last updated', value: (r) => isoDateOrNull(c(r, 'lastUpdated')) },
  { header: 'Report code', value: (r) => c(r, 'reportCode') },
];

const scopeOf = (user: Parameters<typeof seesEverySample>[0]): SampleScope => ({
  assignedTo: seesEverySample(user) ? null : user.id,
});

/** The lab list shows staff and admins every sample. */
const LAB_LIST_SCOPE: SampleScope = { assignedTo: null };

const filtersOf = <T extends SampleFilters & { page?: number; pageSize?: number }>(
  query: T,
): SampleFilters => {
  const { page: _page, pageSize: _pageSize, ...filters } = query;
  return filters;
};

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
          summary:
            'The work list: samples assigned to the caller (every sample for an admin), searched, filtered and sorted',
          description:
            'Each row carries the list fields (id, item, category, status, urgency, client and representative names, dates, report code) with user and assignedStaff names; the full record is GET /api/samples/{id}. At most 500 rows per page (pageSize 1–500, default 500); the total in X-Total-Count. Search (q), filters and sort as GET /api/admin/samples; a staff member only ever sees the samples assigned to them.',
          security: [{ bearer: [] }],
          querystring: sampleListQuery(WORK_LIST_PAGE_SIZE, WORK_LIST_PAGE_SIZE),
          response: { 200: workList, ...errors },
        },
      },
      async (request, reply) => {
        const user = currentUser(request);
        const { page, pageSize } = request.query;
        const filters = filtersOf(request.query);
        const scope = scopeOf(user);
        const window = { offset: (page - 1) * pageSize, limit: pageSize };
        if (isPlainView(filters)) {
          const { rows, total } =
            scope.assignedTo === null
              ? await listAllSamples(deps.db, window)
              : await listAssignedSamples(deps.db, scope.assignedTo, window);
          reply.header(TOTAL_COUNT_HEADER, String(total));
          return rows.map(presentWorkListItem);
        }
        checkDepth(window.offset);
        const prepared = await prepareFilters(deps.db, filters);
        const [rows, counted] = await Promise.all([
          searchWorkList(deps.db, prepared, scope, window),
          countSamples(deps.db, prepared, scope),
        ]);
        setTotal(reply, counted, { window, rows: rows.length });
        return rows.map(presentWorkListItem);
      },
    );

    app.get(
      '/api/staff/samples/counts',
      {
        onRequest: labOnly,
        schema: {
          tags: ['workflow'],
          summary: "The work list's counters: the caller's samples (every sample for an admin) by status",
          security: [{ bearer: [] }],
          response: { 200: workListCounts, ...errors },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'private, no-store');
        return countWorkList(deps.db, scopeOf(currentUser(request)));
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
        const { status, comment } = request.body;
        const row = await updateSampleStatus(
          deps,
          currentUser(request),
          auditContext(request),
          request.params.id,
          {
            status,
            comment: comment ?? null,
          },
        );
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
          summary:
            'Every sample, newest first, one page; searched, filtered and sorted; the total in X-Total-Count',
          description:
            'q matches a VAL id (VAL-0042 or 42), a report code, words of the item name and the client\'s name or e-mail (any case, accents ignored, partial words); exact id and code matches come first. Filters: status (repeatable), assignedStaffId (or none), custody, overdue, from/to (submission day, UTC). sort: submitted, expected, lastUpdated, "-" for descending. A searched, filtered or sorted list pages through its first 10,000 rows; X-Total-Count is exact up to 10,000, beyond it an estimate flagged by X-Total-Count-Estimated: true.',
          security: [{ bearer: [] }],
          querystring: sampleListQuery(ADMIN_PAGE_SIZE, MAX_ADMIN_PAGE_SIZE),
          response: { 200: sampleList, ...errors },
        },
      },
      async (request, reply) => {
        const { page, pageSize } = request.query;
        const filters = filtersOf(request.query);
        reply.header('cache-control', 'private, no-store');
        if (isPlainView(filters)) {
          const at = await locatePage(deps.db, (page - 1) * pageSize);
          reply.header(TOTAL_COUNT_HEADER, String(at.total));
          if (at.upperId === null) return [];
          const rows = await samplesBelow(deps.db, at.upperId, at.skip, pageSize);
          return rows.map(present);
        }
        const window = { offset: (page - 1) * pageSize, limit: pageSize };
        checkDepth(window.offset);
        const prepared = await prepareFilters(deps.db, filters);
        const [rows, counted] = await Promise.all([
          searchLabList(deps.db, prepared, LAB_LIST_SCOPE, window),
          countSamples(deps.db, prepared, LAB_LIST_SCOPE),
        ]);
        setTotal(reply, counted, { window, rows: rows.length });
        return rows.map(present);
      },
    );

    app.get(
      '/api/admin/samples.csv',
      {
        onRequest: labOnly,
        schema: {
          tags: ['workflow'],
          summary: "Every sample the filters select, as CSV (streamed), in the list's order",
          description:
            'The same search, filters and sort as GET /api/admin/samples, every matching row (no paging). text/csv with a header row; cells that a spreadsheet would read as a formula start with an apostrophe.',
          security: [{ bearer: [] }],
          querystring: sampleExportQuery,
          response: errors,
        },
      },
      async (request, reply) => {
        const day = isoDay(new Date());
        return sendCsv(
          reply,
          `samples-${day}.csv`,
          CSV_COLUMNS,
          exportBatches(
            deps.database,
            await prepareFilters(deps.db, request.query),
            LAB_LIST_SCOPE,
            deps.config.exportBatchRows,
          ),
        );
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
      async (request) =>
        presentSample(
          await assignSample(deps, auditContext(request), request.params.id, request.body.staffId),
        ),
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
        const [{ byStatus, weekly }, open] = await Promise.all([
          sampleAnalytics(deps.db, ANALYTICS_WEEKS),
          openSamplesProgress(deps.db),
        ]);
        return presentAnalytics(byStatus, weekly, open, new Date());
      },
    );
  };
}
