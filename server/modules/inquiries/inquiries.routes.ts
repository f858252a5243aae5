import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse, idParams } from '../../../common/contracts/errors';
import {
  contactInquiry,
  contactInquiryList,
  inquiryExportQuery,
  inquiryReplyRequest,
  inquiryStatusRequest,
} from '../../../common/contracts/inquiries';
import { pageQuery, TOTAL_COUNT_HEADER } from '../../../common/contracts/workflow';
import type { AppDeps } from '../../app-deps';
import { auditContext } from '../../audit/request';
import { currentUser, requireRole } from '../../plugins/auth';
import { presentInquiry } from './inquiries.presenter';
import { changeInquiryStatus, replyToInquiry } from './answer-inquiry';
import { INQUIRY_EXPORT_AT, inquiryBatches, type InquiryExportRow, listInquiries } from './inquiries.queries';
import { type CsvColumn, sendCsv } from '../../plugins/csv-reply';
import { isoDateOrNull, isoDay } from '../../time';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };

/** One column of an exported inquiry, by name. */
const c = (r: InquiryExportRow, key: keyof typeof INQUIRY_EXPORT_AT): string | null =>
  r[INQUIRY_EXPORT_AT[key]] ?? null;

/** The inquiries' CSV columns (docs/product/api.md), read from the export's text rows. */
const CSV_COLUMNS: CsvColumn<InquiryExportRow>[] = [
  { header: 'ID', value: (r) => Number(c(r, 'id')) },
  { header: 'Received', value: (r) => isoDateOrNull(c(r, 'createdAt')) },
  { header: 'First name', value: (r) => c(r, 'firstName') },
  { header: 'Last name', value: (r) => c(r, 'lastName') },
  { header: 'E-mail', value: (r) => c(r, 'email') },
  { header: 'Phone', value: (r) => c(r, 'phone') },
  { header: 'Subject', value: (r) => c(r, 'subject') },
  { header: 'Message', value: (r) => c(r, 'message') },
  { header: 'Status', value: (r) => c(r, 'status') },
  { header: 'Reply', value: (r) => c(r, 'replyMessage') },
  { header: 'Replied', value: (r) => isoDateOrNull(c(r, 'repliedAt')) },
];

/** Admin contact inquiries: /api/admin/contact-inquiries*, newest first. */
export function inquiriesRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/admin/contact-inquiries',
      {
        onRequest: requireRole('admin'),
        schema: {
          tags: ['inquiries'],
          summary: 'Contact inquiries, newest first, one page; the total in X-Total-Count',
          security: [{ bearer: [] }],
          querystring: pageQuery,
          response: { 200: contactInquiryList, ...errors },
        },
      },
      async (request, reply) => {
        const { page, pageSize } = request.query;
        const { rows, total } = await listInquiries(deps.db, (page - 1) * pageSize, pageSize);
        reply.header(TOTAL_COUNT_HEADER, String(total));
        reply.header('cache-control', 'private, no-store');
        return rows.map(presentInquiry);
      },
    );

    app.get(
      '/api/admin/contact-inquiries.csv',
      {
        onRequest: requireRole('admin'),
        schema: {
          tags: ['inquiries'],
          summary: 'Every contact inquiry (of the given statuses), newest first, as CSV (streamed)',
          security: [{ bearer: [] }],
          querystring: inquiryExportQuery,
          response: errors,
        },
      },
      async (request, reply) => {
        const day = isoDay(new Date());
        return sendCsv(
          reply,
          `contact-inquiries-${day}.csv`,
          CSV_COLUMNS,
          inquiryBatches(deps.database, request.query.status, deps.config.exportBatchRows),
        );
      },
    );

    app.post(
      '/api/admin/contact-inquiries/:id/status',
      {
        onRequest: requireRole('admin'),
        schema: {
          tags: ['inquiries'],
          summary: 'Set an inquiry status (new, pending, responded)',
          security: [{ bearer: [] }],
          params: idParams,
          body: inquiryStatusRequest,
          response: { 200: contactInquiry, ...errors },
        },
      },
      async (request) =>
        presentInquiry(
          await changeInquiryStatus(deps.db, auditContext(request), request.params.id, request.body.status),
        ),
    );

    app.post(
      '/api/admin/contact-inquiries/:id/reply',
      {
        onRequest: requireRole('admin'),
        schema: {
          tags: ['inquiries'],
          summary:
            'Reply to an inquiry: the reply is stored, mailed to the sender, and the inquiry is responded',
          security: [{ bearer: [] }],
          params: idParams,
          body: inquiryReplyRequest,
          response: { 200: contactInquiry, ...errors },
        },
      },
      async (request) =>
        presentInquiry(
          await replyToInquiry(
            deps,
            auditContext(request),
            currentUser(request),
            request.params.id,
            request.body.message,
          ),
        ),
    );
  };
}
