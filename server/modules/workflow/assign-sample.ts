import { ASSIGNEE_ROLE_MESSAGE } from '../../../common/contracts/workflow';
import { type AuditWho, recordAudit } from '../../audit/audit';
import type { Db } from '../../db/client';
import type { SampleRow } from '../../db/samples';
import type { Mailer } from '../../mail/mailer';
import { mailSampleAssigned } from '../../mail/notifications';
import { badRequest, notFound } from '../../plugins/errors';
import { canBeAssignedSamples } from '../../policies/samples';
import { assignSample as writeAssignment, findSample, findUserForAssignment } from './workflow.queries';

export const SAMPLE_NOT_FOUND = 'Sample not found';

/**
 * An admin assigns a sample to a staff member or admin (docs/product/roles-and-access.md): 404 for an
 * unknown sample, 400 when the account may not be assigned samples. A real change mails the assignee
 * and is audited, in the assignment's transaction.
 */
export async function assignSample(
  deps: { db: Db; mailer: Mailer },
  who: AuditWho,
  sampleId: number,
  staffId: number,
): Promise<SampleRow> {
  const sample = await findSample(deps.db, sampleId);
  if (!sample) throw notFound(SAMPLE_NOT_FOUND);
  const assignee = await findUserForAssignment(deps.db, staffId);
  if (!assignee || !canBeAssignedSamples(assignee))
    throw badRequest(ASSIGNEE_ROLE_MESSAGE, [{ path: 'staffId', message: ASSIGNEE_ROLE_MESSAGE }]);
  const row = await deps.db.transaction(async (tx) => {
    const updated = await writeAssignment(tx, sample.id, assignee.id);
    if (updated && sample.assignedStaffId !== assignee.id) {
      await mailSampleAssigned(tx, deps.mailer, updated, assignee.id);
      await recordAudit(tx, {
        ...who,
        action: 'sample.assigned',
        subject: { type: 'sample', id: sample.id },
        before: { assignedStaffId: sample.assignedStaffId },
        after: { assignedStaffId: assignee.id },
      });
    }
    return updated;
  });
  if (!row) throw notFound(SAMPLE_NOT_FOUND);
  return row;
}
