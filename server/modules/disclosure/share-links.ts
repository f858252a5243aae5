import { randomBytes } from 'node:crypto';
import { NO_REPORT_TO_SHARE, SHARE_LINK_NOT_FOUND } from '../../../common/contracts/share-links';
import { type AuditWho, recordAudit } from '../../audit/audit';
import type { Db } from '../../db/client';
import { findSample, type SampleRow } from '../../db/samples';
import { conflict, forbidden, notFound } from '../../plugins/errors';
import { type Actor } from '../../policies/actor';
import { canReadSample, canShareReport } from '../../policies/samples';
import {
  insertShareLink,
  revokeShareLink,
  type ShareLinkRow,
  shareTokenHash,
  shareTokenHint,
} from './disclosure.queries';

// The owner's share links (docs/product/valuation-report.md): made for an issued report and revoked,
// each with its audit event in one transaction. The token is the link's secret: only its hash and last
// characters are stored, and the audit event names the link, never the token.

const DAY_MS = 86_400_000;
const SAMPLE_NOT_FOUND = 'Sample not found';
const ONLY_OWNER = 'Only the owner of this sample can share its report';

/** The sample if the caller is its owner (or an admin): 404 to whoever may not read it, 403 to the lab. */
export async function ownedSample(db: Db, user: Actor, id: number): Promise<SampleRow> {
  const sample = await findSample(db, id);
  if (!sample || !canReadSample(user, sample)) throw notFound(SAMPLE_NOT_FOUND);
  if (!canShareReport(user, sample)) throw forbidden(ONLY_OWNER);
  return sample;
}

/** Makes a link that shows the report's value; answers it with its token, shown this once. */
export async function createShareLink(
  db: Db,
  user: Actor,
  who: AuditWho,
  sampleId: number,
  body: { label: string | null; expiresInDays: number },
): Promise<{ sample: SampleRow & { reportCode: string }; link: ShareLinkRow; token: string; now: Date }> {
  const sample = await ownedSample(db, user, sampleId);
  const reportCode = sample.reportCode;
  if (!reportCode || !sample.reportGenerated) throw conflict(NO_REPORT_TO_SHARE);
  const now = new Date();
  const token = randomBytes(24).toString('base64url');
  const link = await db.transaction(async (tx) => {
    const created = await insertShareLink(tx, {
      sampleId: sample.id,
      tokenHash: shareTokenHash(token),
      tokenHint: shareTokenHint(token),
      label: body.label,
      createdBy: user.id,
      createdAt: now,
      expiresAt: new Date(now.getTime() + body.expiresInDays * DAY_MS),
    });
    await recordAudit(tx, {
      ...who,
      action: 'share_link.created',
      subject: { type: 'sample', id: sample.id },
      before: null,
      after: { shareLinkId: created.id, label: created.label, expiresAt: created.expiresAt },
    });
    return created;
  });
  return { sample: { ...sample, reportCode }, link, token, now };
}

/** Revokes a link at once; revoking it again changes nothing and records nothing. */
export async function revokeOwnShareLink(
  db: Db,
  user: Actor,
  who: AuditWho,
  sampleId: number,
  linkId: number,
): Promise<{ sample: SampleRow; link: ShareLinkRow }> {
  const sample = await ownedSample(db, user, sampleId);
  const link = await db.transaction(async (tx) => {
    const at = new Date();
    const revoked = await revokeShareLink(tx, sample.id, linkId, at);
    if (revoked?.revokedAt?.getTime() === at.getTime())
      await recordAudit(tx, {
        ...who,
        action: 'share_link.revoked',
        subject: { type: 'sample', id: sample.id },
        before: { shareLinkId: revoked.id, label: revoked.label, revoked: false },
        after: { shareLinkId: revoked.id, label: revoked.label, revoked: true },
      });
    return revoked;
  });
  if (!link) throw notFound(SHARE_LINK_NOT_FOUND);
  return { sample, link };
}
