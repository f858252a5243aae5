import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse, idParams } from '../../../common/contracts/errors';
import {
  createShareLinkBody,
  NO_REPORT_TO_SHARE,
  SHARE_LINK_NOT_FOUND,
  type ShareLink,
  shareLink,
  shareLinkParams,
  verificationLogEntry,
  verificationLogQuery,
} from '../../../common/contracts/share-links';
import { TOTAL_COUNT_HEADER } from '../../../common/contracts/workflow';
import type { AppDeps } from '../../app-deps';
import { recordAudit } from '../../audit/audit';
import { auditContext } from '../../audit/request';
import { currentUser } from '../../plugins/auth';
import { conflict, forbidden, notFound } from '../../plugins/errors';
import { isoDate } from '../../time';
import { canReadSample, canShareReport } from '../../policies/samples';
import { findSample } from '../../db/samples';
import {
  insertShareLink,
  listShareLinks,
  revokeShareLink,
  type ShareLinkRow,
  shareTokenHash,
  shareTokenHint,
  verificationsOf,
} from './disclosure.queries';

const DAY_MS = 86_400_000;
const SAMPLE_NOT_FOUND = 'Sample not found';
const ONLY_OWNER = 'Only the owner of this sample can share its report';

/**
 * Owner-controlled disclosure (docs/product/valuation-report.md): share links that let a verification
 * show the value, and the owner's log of who verified the report.
 */
export function disclosureRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    /** A link as the owner sees it; the token and URL only when it was just made (`token`). */
    const present = (
      code: string,
      row: ShareLinkRow,
      now = new Date(),
      token: string | null = null,
    ): ShareLink => ({
      id: row.id,
      token,
      url: token ? `${deps.config.publicUrl}/verify-report?code=${code}&share=${token}` : null,
      hint: row.tokenHint,
      label: row.label,
      createdAt: isoDate(row.createdAt),
      expiresAt: isoDate(row.expiresAt),
      revokedAt: row.revokedAt ? isoDate(row.revokedAt) : null,
      active: row.revokedAt === null && row.expiresAt > now,
    });

    /** The sample if the caller is its owner (or an admin): 404 to whoever may not read it, 403 to the lab. */
    const ownedSample = async (request: Parameters<typeof currentUser>[0], id: number) => {
      const user = currentUser(request);
      const sample = await findSample(deps.db, id);
      if (!sample || !canReadSample(user, sample)) throw notFound(SAMPLE_NOT_FOUND);
      if (!canShareReport(user, sample)) throw forbidden(ONLY_OWNER);
      return { user, sample };
    };
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
        const { user, sample } = await ownedSample(request, request.params.id);
        if (!sample.reportCode || !sample.reportGenerated) throw conflict(NO_REPORT_TO_SHARE);
        const now = new Date();
        const token = randomBytes(24).toString('base64url');
        const row = await deps.db.transaction(async (tx) => {
          const link = await insertShareLink(tx, {
            sampleId: sample.id,
            tokenHash: shareTokenHash(token),
            tokenHint: shareTokenHint(token),
            label: request.body.label,
            createdBy: user.id,
            createdAt: now,
            expiresAt: new Date(now.getTime() + request.body.expiresInDays * DAY_MS),
          });
          // The token is the link's secret: the event names the link, never its token.
          await recordAudit(tx, {
            ...auditContext(request),
            action: 'share_link.created',
            subject: { type: 'sample', id: sample.id },
            before: null,
            after: { shareLinkId: link.id, label: link.label, expiresAt: link.expiresAt },
          });
          return link;
        });
        return reply.code(201).send(present(sample.reportCode, row, now, token));
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
        const { sample } = await ownedSample(request, request.params.id);
        const code = sample.reportCode ?? '';
        return (await listShareLinks(deps.db, sample.id)).map((row) => present(code, row));
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
        const { sample } = await ownedSample(request, request.params.id);
        const row = await deps.db.transaction(async (tx) => {
          const at = new Date();
          const link = await revokeShareLink(tx, sample.id, request.params.linkId, at);
          // Revoking a revoked link again changes nothing (it keeps its first time) and records nothing.
          if (link?.revokedAt?.getTime() === at.getTime())
            await recordAudit(tx, {
              ...auditContext(request),
              action: 'share_link.revoked',
              subject: { type: 'sample', id: sample.id },
              before: { shareLinkId: link.id, label: link.label, revoked: false },
              after: { shareLinkId: link.id, label: link.label, revoked: true },
            });
          return link;
        });
        if (!row) throw notFound(SHARE_LINK_NOT_FOUND);
        return present(sample.reportCode ?? '', row);
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
        const { sample } = await ownedSample(request, request.params.id);
        const { page, pageSize } = request.query;
        const { rows, total } = sample.reportCode
          ? await verificationsOf(deps.db, sample.reportCode, {
              offset: (page - 1) * pageSize,
              limit: pageSize,
            })
          : { rows: [], total: 0 };
        reply.header(TOTAL_COUNT_HEADER, String(total));
        return rows.map((r) => ({ ...r, at: isoDate(r.at) }));
      },
    );
  };
}
