import type { AuditWho } from '../../audit/audit';
import type { Db } from '../../db/client';
import type { SampleRow } from '../../db/samples';
import type { Mailer } from '../../mail/mailer';
import { forbidden, notFound } from '../../plugins/errors';
import type { Actor } from '../../policies/actor';
import { canWorkOnSample } from '../../policies/samples';
import { changeSampleStatus } from '../sample-status/change-status';
import { SAMPLE_NOT_FOUND } from './assign-sample';
import { findSampleForUpdate } from './workflow.queries';

/**
 * The status call (docs/product/statuses.md): the sample is locked, the caller must be its assigned
 * staff member or an admin, and the change (history, mail, webhook, audit) commits as one.
 */
export async function updateSampleStatus(
  deps: { db: Db; mailer: Mailer },
  user: Actor,
  who: AuditWho,
  sampleId: number,
  change: { status: string; comment: string | null },
): Promise<SampleRow> {
  return deps.db.transaction(async (tx) => {
    const sample = await findSampleForUpdate(tx, sampleId);
    if (!sample) throw notFound(SAMPLE_NOT_FOUND);
    if (!canWorkOnSample(user, sample))
      throw forbidden('Only the assigned staff member or an admin can change this sample');
    return changeSampleStatus(tx, deps.mailer, who, sample, change);
  });
}
