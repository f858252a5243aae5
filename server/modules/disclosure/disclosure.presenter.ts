import type { ShareLink, VerificationLogEntry } from '../../../common/contracts/share-links';
import { isoDate } from '../../time';
import type { ShareLinkRow, verificationsOf } from './disclosure.queries';

/**
 * A share link as its owner sees it (docs/product/valuation-report.md). The token and the full URL
 * only in the answer that made it (`token`): afterwards only a hash is kept and the list shows the
 * token's last characters.
 */
export function presentShareLink(
  publicUrl: string,
  code: string,
  row: ShareLinkRow,
  now = new Date(),
  token: string | null = null,
): ShareLink {
  return {
    id: row.id,
    token,
    url: token ? `${publicUrl}/verify-report?code=${code}&share=${token}` : null,
    hint: row.tokenHint,
    label: row.label,
    createdAt: isoDate(row.createdAt),
    expiresAt: isoDate(row.expiresAt),
    revokedAt: row.revokedAt ? isoDate(row.revokedAt) : null,
    active: row.revokedAt === null && row.expiresAt > now,
  };
}

type VerificationRow = Awaited<ReturnType<typeof verificationsOf>>['rows'][number];

/** One line of the owner's "who looked at my report" log. */
export const presentVerification = (r: VerificationRow): VerificationLogEntry => ({
  ...r,
  at: isoDate(r.at),
});
