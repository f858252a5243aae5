import type { PersonName } from '../../../common/contracts/samples';
import type { AdminAnalytics, WorkListItem } from '../../../common/contracts/workflow';
import { INACTIVE_STATUSES, normalizeStatus, SAMPLE_STATUSES } from '../../../common/domain/samples';
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

/**
 * The dashboard's counters (GET /api/admin/analytics): samples by status (legacy spellings counted
 * under their status), active, completed and overdue ones as of `now`, and the weekly submissions.
 */
export function presentAnalytics(
  byStatus: { status: string; count: number | string }[],
  weekly: AdminAnalytics['weekly'],
  open: Parameters<typeof presentProgress>[0][],
  now: Date,
): AdminAnalytics {
  const overdueSamples = open.filter((r) => presentProgress(r, now).overdue).length;
  const counts = new Map<string, number>(SAMPLE_STATUSES.map((s) => [s, 0]));
  for (const r of byStatus) {
    const s = normalizeStatus(r.status);
    counts.set(s, (counts.get(s) ?? 0) + Number(r.count));
  }
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  const inactive = INACTIVE_STATUSES.reduce((a, s) => a + (counts.get(s) ?? 0), 0);
  return {
    totalSamples: total,
    activeSamples: total - inactive,
    completedSamples: counts.get('completed') ?? 0,
    overdueSamples,
    byStatus: SAMPLE_STATUSES.map((status) => ({ status, count: counts.get(status) ?? 0 })),
    weekly,
  };
}
