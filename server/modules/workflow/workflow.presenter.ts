import type { PersonName } from '../../../common/contracts/samples';
import type { WorkListItem } from '../../../common/contracts/workflow';
import { isoDate, isoDateOrNull } from '../../time';
import { presentCustody, presentListThumbnail, presentProgress } from '../samples/samples.presenter';
import type { WorkListRow } from './workflow.queries';

const personOrNull = (firstName: string | null, lastName: string | null): PersonName | null =>
  firstName !== null || lastName !== null ? { firstName, lastName } : null;

/** A row of the lab's work list (GET /api/staff/samples): the sample's list fields and both names. */
export function presentWorkListItem(row: WorkListRow): WorkListItem {
  return {
    id: row.id,
    userId: row.userId,
    itemName: row.itemName,
    category: row.category,
    status: row.status,
    urgencyLevel: row.urgencyLevel,
    submitterName: row.submitterName,
    isRepresentative: row.isRepresentative,
    representativeName: row.representativeName,
    clientName: row.clientName,
    submissionDate: isoDate(row.submissionDate),
    lastUpdated: isoDate(row.lastUpdated),
    assignedStaffId: row.assignedStaffId,
    reportGenerated: row.reportGenerated,
    reportCode: row.reportCode,
    reportRevokedAt: isoDateOrNull(row.reportRevokedAt),
    ...presentProgress(row),
    custody: presentCustody(row, true),
    user: personOrNull(row.userFirstName, row.userLastName),
    assignedStaff: personOrNull(row.staffFirstName, row.staffLastName),
    ...presentListThumbnail(row.firstPhoto),
  };
}
