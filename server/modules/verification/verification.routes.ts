import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CREDENTIAL_MEDIA_TYPE,
  credentialCheckResponse,
  credentialQuery,
  verifyCredentialBody,
} from '../../../common/contracts/credentials';
import { errorResponse } from '../../../common/contracts/errors';
import {
  documentCheckResponse,
  REPORT_NOT_FOUND_MESSAGE,
  type VerificationResponse,
  verificationResponse,
  verifyCodeParams,
  verifyQuery,
} from '../../../common/contracts/verification';
import type { AppDeps } from '../../app-deps';
import { notFound } from '../../plugins/errors';
import { findActiveShareLink } from '../disclosure/disclosure.queries';
import { reportPhotoPath } from '../photos/photo-links';
import { checkDocument } from './check-document';
import { checkCredentialSignature } from './credential';
import { credentialStatus } from './credential-status';
import { readDocumentDigest } from './document-upload';
import { issuedReportFinder } from './issued-report';
import { reportCredential } from './report-credential';
import { createVerificationLogger } from './verification-log';
import { presentVerification } from './verification.presenter';

/** Requests per address and minute for the public verification calls (docs/product/limits.md). */
export const VERIFY_RATE_LIMIT = { max: 60, timeWindow: '1 minute' } as const;

/**
 * Public verification of issued reports: by code, by document (docs/product/reports-and-verification.md),
 * and by verifiable credential (docs/product/signed-reports.md).
 */
export function verificationRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const findIssued = issuedReportFinder(deps.database);
    const log = createVerificationLogger(deps.db, (err) =>
      app.log.warn({ err }, 'verification log not written'),
    );
    app.addHook('onClose', async () => log.flush());
    const rateLimit = deps.config.rateLimits ? { rateLimit: VERIFY_RATE_LIMIT } : {};

    app.get(
      '/api/reports/verify/:code',
      {
        config: { public: true, ...rateLimit },
        schema: {
          tags: ['verification'],
          summary: 'Verify a report code (public, rate limited per address)',
          description:
            'Code trimmed and upper-cased. 404 {message:"Report not found"} for unknown codes. A revoked report answers 200 with revoked: true.',
          params: verifyCodeParams,
          querystring: verifyQuery,
          response: { 200: verificationResponse, 404: errorResponse, 429: errorResponse },
        },
      },
      async (request, reply) => {
        const { code, row } = await findIssued(request.params.code);
        if (!row) {
          log.record({ code, result: 'not_found', ip: request.ip });
          throw notFound(REPORT_NOT_FOUND_MESSAGE);
        }
        // The value only through a live share link of this report's owner, and never for a withdrawn report.
        const share = request.query.share;
        const link =
          share && row.reportRevokedAt === null
            ? await findActiveShareLink(deps.db, row.id, share)
            : undefined;
        const answer: VerificationResponse = presentVerification(row, {
          photoUrl: reportPhotoPath,
          showValue: link !== undefined,
        });
        log.record({
          code,
          result: answer.revoked ? 'revoked' : 'authentic',
          ip: request.ip,
          shareLinkId: link?.id ?? null,
        });
        // The hot public call: the public presenter already builds exactly the contract's fields (typed
        // above), so the answer is serialised directly instead of being validated again at the edge.
        return reply
          .type('application/json; charset=utf-8')
          .send(JSON.stringify(answer) as unknown as VerificationResponse);
      },
    );

    app.post(
      '/api/reports/verify/:code/document',
      {
        config: { public: true, ...rateLimit },
        schema: {
          tags: ['verification'],
          summary: 'Check a PDF against the revisions issued under a code (public, multipart "file")',
          description:
            'result current: byte-identical to the current revision; superseded: an older revision (with when and by which revision); unknown: not issued by the lab under this code.',
          params: verifyCodeParams,
          consumes: ['multipart/form-data'],
          response: {
            200: documentCheckResponse,
            400: errorResponse,
            404: errorResponse,
            413: errorResponse,
            429: errorResponse,
          },
        },
      },
      async (request) => {
        const { code, row } = await findIssued(request.params.code);
        if (!row) {
          log.record({ code, result: 'document_not_found', ip: request.ip });
          throw notFound(REPORT_NOT_FOUND_MESSAGE);
        }
        const answer = await checkDocument(deps.db, code, await readDocumentDigest(request), row);
        log.record({ code, result: `document_${answer.result}`, ip: request.ip });
        return answer;
      },
    );
    app.get(
      '/api/reports/verify/:code/credential',
      {
        config: { public: true, ...rateLimit },
        schema: {
          tags: ['verification'],
          summary:
            'A revision of an issued report as a W3C Verifiable Credential (public, application/vc+jwt)',
          description:
            'The current revision, or ?revision=N. A JWT (typ vc+jwt, ES256) whose keys are at /.well-known/jwks.json. 404 {message:"Report not found"} for unknown codes or revisions.',
          params: verifyCodeParams,
          querystring: credentialQuery,
          response: { 400: errorResponse, 404: errorResponse, 429: errorResponse },
        },
      },
      async (request, reply) => {
        const { code, row } = await findIssued(request.params.code);
        if (!row) throw notFound(REPORT_NOT_FOUND_MESSAGE);
        const { jwt, revision } = await reportCredential(deps, code, row, request.query.revision);
        return (
          reply
            .type(CREDENTIAL_MEDIA_TYPE)
            .header('content-disposition', `attachment; filename="Report-${code}-r${revision}.jwt"`)
            .header('cache-control', 'no-store')
            // A JWT, not JSON: the response schemas above only describe the error bodies.
            .send(jwt as unknown as { message: string })
        );
      },
    );

    app.post(
      '/api/reports/verify-credential',
      {
        config: { public: true, ...rateLimit },
        schema: {
          tags: ['verification'],
          summary: 'Check a report credential (public): genuine, and current, superseded or revoked',
          description:
            'genuine: signed by one of the keys at /.well-known/jwks.json and unchanged. status: current | superseded | revoked | not-genuine | unknown.',
          body: verifyCredentialBody,
          response: { 200: credentialCheckResponse, 400: errorResponse, 429: errorResponse },
        },
      },
      async (request) => {
        const check = await checkCredentialSignature(deps.keys.credentials, request.body.credential);
        const answer = await credentialStatus(deps.db, findIssued, check);
        log.record({ code: answer.reportCode ?? '', result: `credential_${answer.status}`, ip: request.ip });
        return answer;
      },
    );
  };
}
