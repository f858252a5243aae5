import type { CredentialCheckResponse } from '../../../common/contracts/credentials';
import type { DbOrTx } from '../../db/client';
import { isoDate, isoDay } from '../../time';
import type { checkCredentialSignature } from './credential';
import type { FindIssued } from './issued-report';
import { listRevisionsOf } from './verification.queries';

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

/**
 * What a checked credential stands for (docs/product/signed-reports.md): not genuine; genuine but of a
 * revision not on record; or genuine and current, superseded or revoked.
 */
export async function credentialStatus(
  db: DbOrTx,
  findIssued: FindIssued,
  check: Awaited<ReturnType<typeof checkCredentialSignature>>,
): Promise<CredentialCheckResponse> {
  if (!check.genuine)
    return { genuine: false, status: 'not-genuine', keyId: check.kid, ...none, message: check.reason };
  const s = check.subject;
  const { code, row } = await findIssued(s.reportCode);
  const revisions = row ? await listRevisionsOf(db, code) : [];
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
  const message =
    status === 'revoked'
      ? `Genuine credential for revision ${match.revision} of report ${code}, but the report has been revoked${row.reportRevokedReason ? `: ${row.reportRevokedReason}` : ''}. Do not rely on it.`
      : status === 'superseded'
        ? `Genuine credential for revision ${match.revision} of report ${code}. It was superseded by revision ${next?.revision} on ${next ? isoDay(next.issuedAt) : ''}.`
        : `Genuine credential for revision ${match.revision} of report ${code}, the current revision.`;
  return {
    genuine: true,
    status,
    keyId: check.kid,
    reportCode: code,
    revision: match.revision,
    issuedAt: isoDate(match.issuedAt),
    currentRevision: current.revision,
    currentIssuedAt: isoDate(current.issuedAt),
    supersededByRevision: next?.revision ?? null,
    supersededAt: next ? isoDate(next.issuedAt) : null,
    revokedReason: row.reportRevokedReason,
    revokedAt: row.reportRevokedAt,
    subject: s,
    message,
  };
}
