import { type DocumentCheckResponse, REPORT_NOT_FOUND_MESSAGE } from '../../../common/contracts/verification';
import type { DbOrTx } from '../../db/client';
import { notFound } from '../../plugins/errors';
import { isoDate, isoDay } from '../../time';
import { listRevisionsOf } from './verification.queries';

/**
 * A document checked against the revisions issued under a code (docs/product/reports-and-verification.md),
 * by its SHA-256: the current revision, an older one (superseded, with when and by which), or none.
 */
export async function checkDocument(
  db: DbOrTx,
  code: string,
  digest: string,
  row: { reportRevokedAt: string | null; reportRevokedReason: string | null },
): Promise<DocumentCheckResponse> {
  const revisions = await listRevisionsOf(db, code);
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
        ? `This document is revision ${match?.revision} of report ${code}. It was superseded by revision ${next?.revision} on ${next ? isoDay(next.issuedAt) : undefined}.`
        : `This document was not issued by the laboratory under report ${code}: it matches none of its revisions.`;
  return {
    reportCode: code,
    result,
    revision: match?.revision ?? null,
    issuedAt: match ? isoDate(match.issuedAt) : null,
    currentRevision: current.revision,
    currentIssuedAt: isoDate(current.issuedAt),
    supersededByRevision: next?.revision ?? null,
    supersededAt: next ? isoDate(next.issuedAt) : null,
    revoked,
    revokedReason: row.reportRevokedReason,
    revokedAt: row.reportRevokedAt,
    message: revoked ? `${message} The report has been revoked.` : message,
  };
}
