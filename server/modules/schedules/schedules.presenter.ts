import {
  type ScheduleSummary,
  type ScheduleVerification,
  scheduleVerifyPath,
} from '../../../common/contracts/schedules';
import type { ScheduleRow } from './schedules.queries';
import { isoDate } from '../../time';

// What of a schedule leaves the server (docs/product/schedules.md). The summary goes to those who
// may read the collection; the public verification lists items and report codes, never a value.

export function presentScheduleSummary(row: ScheduleRow, publicUrl: string): ScheduleSummary {
  return {
    scheduleCode: row.code,
    issuedAt: isoDate(row.issuedAt),
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
    issuedAt: isoDate(row.issuedAt),
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
      newer && newer.id !== row.id ? { scheduleCode: newer.code, issuedAt: isoDate(newer.issuedAt) } : null,
    pdfSha256: row.pdfSha256,
  };
}
