import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse, idParams } from '../../../common/contracts/errors';
import {
  createShareLinkBody,
  shareLink,
  shareLinkParams,
  verificationLogEntry,
  verificationLogQuery,
} from '../../../common/contracts/share-links';
import { TOTAL_COUNT_HEADER } from '../../../common/contracts/workflow';
import type { AppDeps } from '../../app-deps';
import { auditContext } from '../../audit/request';
import { currentUser } from '../../plugins/auth';
import { presentShareLink, presentVerification } from './disclosure.presenter';
import { listShareLinks, verificationsOf } from './disclosure.queries';
import { createShareLink, ownedSample, revokeOwnShareLink } from './share-links';

/**
 * Owner-controlled disclosure (docs/product/valuation-report.md): share links that let a verification
 * show the value, and the owner's log of who verified the report.
 */
export function disclosureRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };

    app.post(
      '/api/samples/:id/share-links',
      {
        schema: {
          tags: ['disclosure'],
          summary: "Create a link that shows the report's value to whoever opens it (owner, admin)",
          description:
            'expiresInDays 1–365. Answers 201 with the url PUBLIC_URL/verify-report?code=CODE&share=TOKEN, shown this once (only a hash of the token is kept; the list gives its last characters). 409 when the sample has no issued report.',
          params: idParams,
          body: createShareLinkBody,
          response: { 201: shareLink, ...errors, 409: errorResponse },
        },
      },
      async (request, reply) => {
        const { sample, link, token, now } = await createShareLink(
          deps.db,
          currentUser(request),
          auditContext(request),
          request.params.id,
          request.body,
        );
        return reply
          .code(201)
          .send(presentShareLink(deps.config.publicUrl, sample.reportCode, link, now, token));
      },
    );

    app.get(
      '/api/samples/:id/share-links',
      {
        schema: {
          tags: ['disclosure'],
          summary: "The sample's share links, newest first, with their state (owner, admin)",
          params: idParams,
          response: { 200: shareLink.array(), ...errors },
        },
      },
      async (request) => {
        const sample = await ownedSample(deps.db, currentUser(request), request.params.id);
        const code = sample.reportCode ?? '';
        const now = new Date();
        return (await listShareLinks(deps.db, sample.id)).map((row) =>
          presentShareLink(deps.config.publicUrl, code, row, now),
        );
      },
    );

    app.delete(
      '/api/samples/:id/share-links/:linkId',
      {
        schema: {
          tags: ['disclosure'],
          summary: 'Revoke a share link at once (owner, admin); answers the link',
          params: shareLinkParams,
          response: { 200: shareLink, ...errors },
        },
      },
      async (request) => {
        const { sample, link } = await revokeOwnShareLink(
          deps.db,
          currentUser(request),
          auditContext(request),
          request.params.id,
          request.params.linkId,
        );
        return presentShareLink(deps.config.publicUrl, sample.reportCode ?? '', link);
      },
    );

    app.get(
      '/api/samples/:id/verifications',
      {
        schema: {
          tags: ['disclosure'],
          summary:
            "Who verified this sample's report: time, result, share link, network; newest first (owner, admin)",
          description: 'Paged (page, pageSize 1–100, default 20); the total in X-Total-Count.',
          params: idParams,
          querystring: verificationLogQuery,
          response: { 200: verificationLogEntry.array(), ...errors },
        },
      },
      async (request, reply) => {
        const sample = await ownedSample(deps.db, currentUser(request), request.params.id);
        const { page, pageSize } = request.query;
        const { rows, total } = sample.reportCode
          ? await verificationsOf(deps.db, sample.reportCode, {
              offset: (page - 1) * pageSize,
              limit: pageSize,
            })
          : { rows: [], total: 0 };
        reply.header(TOTAL_COUNT_HEADER, String(total));
        return rows.map(presentVerification);
      },
    );
  };
}
