import {
  type ScheduleSummary,
  type ScheduleVerification,
  scheduleVerifyPath,
} from '../../../common/contracts/schedules';
import type { ScheduleRow } from './schedules.queries';

// What of a schedule leaves the server (docs/product/schedules.md). The summary goes to those who
// may read the collection; the public verification lists items and report codes, never a value.

export function presentScheduleSummary(row: ScheduleRow, publicUrl: string): ScheduleSummary {
  return {
    scheduleCode: row.code,
    issuedAt: row.issuedAt.toISOString(),
    itemCount: row.items.length,
    collectionId: row.collectionId,
    pdfUrl: `/api/collections/${row.collectionId}/schedule/pdf`,
    verifyUrl: `${publicUrl}${scheduleVerifyPath(row.code)}`,
  };
}

export function presentScheduleVerification(
  row: ScheduleRow,
  labName: string,
  revoked: Set<string>,
  newer: ScheduleRow | undefined,
): ScheduleVerification {
  return {
    scheduleCode: row.code,
    issuedAt: row.issuedAt.toISOString(),
    labName,
    itemCount: row.items.length,
    items: row.items.map((i) => ({
      displayId: i.displayId,
      itemName: i.itemName,
      category: i.category,
      reportCode: i.reportCode,
      reportRevision: i.reportRevision,
      reportStatus: revoked.has(i.reportCode) ? 'revoked' : 'issued',
    })),
    superseded:
      newer && newer.id !== row.id
        ? { scheduleCode: newer.code, issuedAt: newer.issuedAt.toISOString() }
        : null,
    pdfSha256: row.pdfSha256,
  };
}
