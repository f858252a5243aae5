import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse, idParams } from '../../../common/contracts/errors';
import {
  BAD_UNSUBSCRIBE_LINK,
  outboxDetail,
  outboxItem,
  outboxList,
  outboxQuery,
  UNSUBSCRIBED_MESSAGE,
  unsubscribeQuery,
  unsubscribeResponse,
} from '../../../common/contracts/mail';
import type { AppDeps } from '../../app-deps';
import { requireRole } from '../../plugins/auth';
import { badRequest, conflict, notFound } from '../../plugins/errors';
import { presentOutboxItem as present } from './mail.presenter';
import { findOutboxMail, listOutbox, turnOffStatusMails } from './mail.queries';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };

/** The admin Outbox (/api/admin/mail/outbox*) and the public unsubscribe call. docs/product/mail.md */
export function mailRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    // RFC 8058 one-click: mail programs POST `List-Unsubscribe=One-Click` as a form.
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_req, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(String(body))));
      },
    );

    app.get(
      '/api/admin/mail/outbox',
      {
        onRequest: requireRole('admin'),
        schema: {
          tags: ['mail'],
          summary: 'Every mail the lab sent or is sending, newest first',
          security: [{ bearer: [] }],
          querystring: outboxQuery,
          response: { 200: outboxList, ...errors },
        },
      },
      async (request) => {
        const { page, pageSize } = request.query;
        const { rows, total } = await listOutbox(deps.db, page, pageSize);
        return { smtpConfigured: deps.mailer.smtpConfigured, total, mails: rows.map(present) };
      },
    );

    app.get(
      '/api/admin/mail/outbox/:id',
      {
        onRequest: requireRole('admin'),
        schema: {
          tags: ['mail'],
          summary: 'One mail as rendered: HTML, plain text and extra headers',
          security: [{ bearer: [] }],
          params: idParams,
          response: { 200: outboxDetail, ...errors },
        },
      },
      async (request) => {
        const row = await findOutboxMail(deps.db, request.params.id);
        if (!row) throw notFound('Mail not found');
        return { ...present(row), html: row.html, text: row.text, headers: row.headers };
      },
    );

    app.post(
      '/api/admin/mail/outbox/:id/retry',
      {
        onRequest: requireRole('admin'),
        schema: {
          tags: ['mail'],
          summary: 'Send a failed (or waiting) mail again now',
          security: [{ bearer: [] }],
          params: idParams,
          response: { 200: outboxItem, ...errors, 409: errorResponse },
        },
      },
      async (request) => {
        const id = request.params.id;
        const row = await findOutboxMail(deps.db, id);
        if (!row) throw notFound('Mail not found');
        if (row.state === 'sent') throw conflict('This mail was sent already');
        await deps.db.transaction((tx) => deps.mailer.retry(tx, id));
        const updated = await findOutboxMail(deps.db, id);
        return present(updated ?? row);
      },
    );

    app.post(
      '/api/mail/unsubscribe',
      {
        config: { public: true },
        schema: {
          tags: ['mail'],
          summary: "Turn off status e-mails from a mail's link, without signing in",
          description:
            'The token comes from the link (?token=…) or a JSON body {token}. Mail programs use it as the ' +
            'RFC 8058 one-click address (form body List-Unsubscribe=One-Click).',
          querystring: unsubscribeQuery,
          response: { 200: unsubscribeResponse, 400: errorResponse },
        },
      },
      async (request) => {
        const body = request.body as { token?: unknown } | null | undefined;
        const token =
          request.query.token ??
          (body && typeof body === 'object' && typeof body.token === 'string' ? body.token : '');
        const userId = deps.mailer.readUnsubscribeToken(token);
        if (!userId) throw badRequest(BAD_UNSUBSCRIBE_LINK);
        if (!(await turnOffStatusMails(deps.db, userId))) throw badRequest(BAD_UNSUBSCRIBE_LINK);
        return { message: UNSUBSCRIBED_MESSAGE };
      },
    );
  };
}
