import { createHash } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CREDENTIAL_MEDIA_TYPE,
  type CredentialCheckResponse,
  credentialCheckResponse,
  credentialQuery,
  verifyCredentialBody,
} from '../../../common/contracts/credentials';
import { errorResponse } from '../../../common/contracts/errors';
import {
  type DocumentCheckResponse,
  documentCheckResponse,
  REPORT_NOT_FOUND_MESSAGE,
  type VerificationResponse,
  verificationResponse,
  verifyCodeParams,
  verifyQuery,
} from '../../../common/contracts/verification';
import { DEFAULT_LAB_NAME, normalizeReportCode, REPORT_CODE_PATTERN } from '../../../common/domain/reports';
import { CATEGORIES, optionLabel } from '../../../common/domain/samples';
import { inMegabytes, MAX_SAMPLE_FILE_BYTES } from '../../../common/domain/uploads';
import type { AppDeps } from '../../app-deps';
import { AppError, badRequest, notFound } from '../../plugins/errors';
import { findActiveShareLink } from '../disclosure/disclosure.queries';
import { reportPhotoPath } from '../photos/photo-links';
import { personName } from '../reports/issue-report';
import { readLabSettings } from '../../db/lab-settings';
import { checkCredentialSignature, signCredential } from './credential';
import { createVerificationLogger } from './verification-log';
import { presentVerification } from './verification.presenter';
import {
  type IssuedRow,
  isIssued,
  listRevisionsOf,
  prepareVerificationLookup,
  revisionSignOff,
} from './verification.queries';

const ONE_FILE_MESSAGE = 'Upload exactly one PDF file, in the field "file"';
const DOCUMENT_TOO_LARGE_MESSAGE = `The file must be ${inMegabytes(MAX_SAMPLE_FILE_BYTES)}MB or smaller`;

/** Requests per address and minute for the public verification calls (docs/product/limits.md). */
export const VERIFY_RATE_LIMIT = { max: 60, timeWindow: '1 minute' } as const;

/**
 * Public verification of issued reports: by code, by document (docs/product/reports-and-verification.md),
 * and by verifiable credential (docs/product/signed-reports.md).
 */
export function verificationRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const lookup = prepareVerificationLookup(deps.database);
    const log = createVerificationLogger(deps.db, (err) =>
      app.log.warn({ err }, 'verification log not written'),
    );
    app.addHook('onClose', async () => log.flush());
    const rateLimit = deps.config.rateLimits ? { rateLimit: VERIFY_RATE_LIMIT } : {};

    /** The issued report behind a code, or null for unknown codes and samples without an issued report. */
    const findIssued = (rawCode: string): Promise<{ code: string; row: IssuedRow | null }> => {
      const code = normalizeReportCode(rawCode);
      if (!REPORT_CODE_PATTERN.test(code)) return Promise.resolve({ code, row: null });
      return lookup(code).then((row) => ({ code, row: isIssued(row) ? row : null }));
    };

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
        if (!request.isMultipart())
          throw badRequest('A PDF file is required', [{ path: 'file', message: 'A PDF file is required' }]);
        // Exactly one file, in the part named "file"; a second file (of any name) is refused.
        let digest: string | null = null;
        let files = 0;
        for await (const part of request.parts()) {
          if (part.type !== 'file') continue;
          files += 1;
          if (files > 1 || part.fieldname !== 'file') {
            part.file.resume();
            throw badRequest(ONE_FILE_MESSAGE, [{ path: 'file', message: ONE_FILE_MESSAGE }]);
          }
          const hash = createHash('sha256');
          for await (const chunk of part.file) hash.update(chunk as Buffer);
          if (part.file.truncated) throw new AppError(413, DOCUMENT_TOO_LARGE_MESSAGE);
          digest = hash.digest('hex');
        }
        if (digest === null)
          throw badRequest('A PDF file is required', [{ path: 'file', message: 'A PDF file is required' }]);
        const answer = checkDocument(code, digest, await listRevisionsOf(deps.db, code), row);
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
        const revisions = await listRevisionsOf(deps.db, code);
        const wanted = request.query.revision;
        const rev = wanted ? revisions.find((r) => r.revision === wanted) : revisions[revisions.length - 1];
        if (!rev) throw notFound(REPORT_NOT_FOUND_MESSAGE);
        const [lab, signOff] = await Promise.all([
          readLabSettings(deps.db),
          revisionSignOff(deps.db, code, rev.revision),
        ]);
        // As the PDF names them: a reviewed revision its author and approver; otherwise the sample's
        // analyst, else whoever issued it.
        const analyst = { firstName: row.staffFirstName, lastName: row.staffLastName };
        const jwt = await signCredential(
          deps.keys.credentials,
          { url: deps.config.publicUrl, name: lab?.labName?.trim() || DEFAULT_LAB_NAME },
          {
            reportCode: code,
            revision: rev.revision,
            item: row.itemName,
            category: optionLabel(CATEGORIES, row.category) || row.category,
            issuedAt: rev.issuedAt,
            pdfSha256: rev.sha256,
            authenticity: rev.content?.authenticity?.verdict ?? null,
            condition: rev.content?.condition?.grade ?? null,
            intendedUse: rev.content?.assignment?.intendedUse ?? null,
            analyzedBy: signOff?.reviewed
              ? personName(signOff.author ?? undefined)
              : personName(analyst) || personName(signOff?.author ?? undefined),
            reviewedBy: signOff?.reviewed ? personName(signOff.reviewer ?? undefined) : null,
          },
        );
        return (
          reply
            .type(CREDENTIAL_MEDIA_TYPE)
            .header('content-disposition', `attachment; filename="Report-${code}-r${rev.revision}.jwt"`)
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
        const answer = await credentialStatus(check);
        log.record({ code: answer.reportCode ?? '', result: `credential_${answer.status}`, ip: request.ip });
        return answer;
      },
    );

    const credentialStatus = async (
      check: Awaited<ReturnType<typeof checkCredentialSignature>>,
    ): Promise<CredentialCheckResponse> => {
      const none = {
        reportCode: null,
        revision: null,
        issuedAt: null,
        currentRevision: null,
        currentIssuedAt: null,
        supersededByRevision: null,
        supersededAt: null,
        revokedReason: null,
        revokedAt: null,
        subject: null,
      };
      if (!check.genuine)
        return { genuine: false, status: 'not-genuine', keyId: check.kid, ...none, message: check.reason };
      const s = check.subject;
      const { code, row } = await findIssued(s.reportCode);
      const revisions = row ? await listRevisionsOf(deps.db, code) : [];
      const index = revisions.findIndex((r) => r.revision === s.revision);
      const match = revisions[index];
      const current = revisions[revisions.length - 1];
      if (!row || !match || !current || match.sha256 !== s.pdfSha256)
        return {
          genuine: true,
          status: 'unknown',
          keyId: check.kid,
          ...none,
          reportCode: s.reportCode,
          revision: s.revision,
          subject: s,
          message: `This credential was signed by the laboratory, but revision ${s.revision} of report ${s.reportCode} is not on record here.`,
        };
      const next = revisions[index + 1];
      const revoked = row.reportRevokedAt !== null;
      const status = revoked ? 'revoked' : next ? 'superseded' : 'current';
      const day = (d: Date) => d.toISOString().slice(0, 10);
      const message =
        status === 'revoked'
          ? `Genuine credential for revision ${match.revision} of report ${code}, but the report has been revoked${row.reportRevokedReason ? `: ${row.reportRevokedReason}` : ''}. Do not rely on it.`
          : status === 'superseded'
            ? `Genuine credential for revision ${match.revision} of report ${code}. It was superseded by revision ${next?.revision} on ${next ? day(next.issuedAt) : ''}.`
            : `Genuine credential for revision ${match.revision} of report ${code}, the current revision.`;
      return {
        genuine: true,
        status,
        keyId: check.kid,
        reportCode: code,
        revision: match.revision,
        issuedAt: match.issuedAt.toISOString(),
        currentRevision: current.revision,
        currentIssuedAt: current.issuedAt.toISOString(),
        supersededByRevision: next?.revision ?? null,
        supersededAt: next ? next.issuedAt.toISOString() : null,
        revokedReason: row.reportRevokedReason,
        revokedAt: row.reportRevokedAt,
        subject: s,
        message,
      };
    };
  };
}

function checkDocument(
  code: string,
  digest: string,
  revisions: { revision: number; sha256: string; issuedAt: Date }[],
  row: { reportRevokedAt: string | null; reportRevokedReason: string | null },
): DocumentCheckResponse {
  const current = revisions[revisions.length - 1];
  if (!current) throw notFound(REPORT_NOT_FOUND_MESSAGE);
  const index = revisions.findIndex((r) => r.sha256 === digest);
  const match = index >= 0 ? revisions[index] : undefined;
  const next = index >= 0 ? revisions[index + 1] : undefined;
  const revoked = row.reportRevokedAt !== null;
  const result = !match ? 'unknown' : next ? 'superseded' : 'current';
  const message =
    result === 'current'
      ? `This document is revision ${current.revision} of report ${code}, the current revision.`
      : result === 'superseded'
        ? `This document is revision ${match?.revision} of report ${code}. It was superseded by revision ${next?.revision} on ${next?.issuedAt.toISOString().slice(0, 10)}.`
        : `This document was not issued by the laboratory under report ${code}: it matches none of its revisions.`;
  return {
    reportCode: code,
    result,
    revision: match?.revision ?? null,
    issuedAt: match ? match.issuedAt.toISOString() : null,
    currentRevision: current.revision,
    currentIssuedAt: current.issuedAt.toISOString(),
    supersededByRevision: next?.revision ?? null,
    supersededAt: next ? next.issuedAt.toISOString() : null,
    revoked,
    revokedReason: row.reportRevokedReason,
    revokedAt: row.reportRevokedAt,
    message: revoked ? `${message} The report has been revoked.` : message,
  };
}
