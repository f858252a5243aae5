import type { AuditEvent } from '../../../common/contracts/audit';
import { isoDate } from '../../plugins/presented-json';
import { compactJson, decodeTimestampOrNull } from '../../db/text-rows';
import type { CsvColumn } from '../../plugins/csv-reply';
import { AUDIT_EXPORT_AT, type AuditExportRow, type AuditRow } from './audit.queries';

/** An event as it leaves the server: everything stored (secrets never enter the log). */
export function presentAuditEvent(row: AuditRow): AuditEvent {
  return {
    id: row.id,
    at: isoDate(row.at),
    actorId: row.actorId,
    actorLabel: row.actorLabel,
    action: row.action,
    subjectType: row.subjectType,
    subjectId: row.subjectId,
    before: row.before ?? null,
    after: row.after ?? null,
    network: row.network,
    prevHash: row.prevHash,
    hash: row.hash,
  };
}

/** One column of an exported event, by name. */
const c = (r: AuditExportRow, key: keyof typeof AUDIT_EXPORT_AT): string | null =>
  r[AUDIT_EXPORT_AT[key]] ?? null;

/**
 * The CSV's columns, in order, from the export's text rows: the event as `presentAuditEvent` gives
 * it, before and after as JSON text (written as they are: an apostrophe would break the JSON). A
 * text cell a spreadsheet would run as a formula (=, +, -, @, tab, CR first: a typed e-mail at a
 * failed sign-in is the visitor's text) gets a leading apostrophe (`csvCell`).
 */
export const AUDIT_CSV: readonly CsvColumn<AuditExportRow>[] = [
  { header: 'id', value: (r) => c(r, 'id') },
  { header: 'at', value: (r) => decodeTimestampOrNull(c(r, 'at')) },
  { header: 'actorId', value: (r) => c(r, 'actorId') },
  { header: 'actorLabel', value: (r) => c(r, 'actorLabel') },
  { header: 'action', value: (r) => c(r, 'action') },
  { header: 'subjectType', value: (r) => c(r, 'subjectType') },
  { header: 'subjectId', value: (r) => c(r, 'subjectId') },
  { header: 'before', value: (r) => compactJson(c(r, 'before')), verbatim: true },
  { header: 'after', value: (r) => compactJson(c(r, 'after')), verbatim: true },
  { header: 'network', value: (r) => c(r, 'network') },
  { header: 'prevHash', value: (r) => c(r, 'prevHash') },
  { header: 'hash', value: (r) => c(r, 'hash') },
];
