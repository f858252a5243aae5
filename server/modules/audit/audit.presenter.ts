import type { AuditEvent } from '../../../common/contracts/audit';
import { isoDate } from '../../plugins/presented-json';
import type { AuditRow } from './audit.queries';

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

/** The CSV's columns, in order; before and after as JSON text. */
export const AUDIT_CSV_COLUMNS = [
  'id',
  'at',
  'actorId',
  'actorLabel',
  'action',
  'subjectType',
  'subjectId',
  'before',
  'after',
  'network',
  'prevHash',
  'hash',
] as const;

/**
 * A cell a spreadsheet would run as a formula (=, +, -, @, tab, CR first: a typed e-mail at a failed
 * sign-in is the visitor's text) is written with a leading apostrophe, as OWASP advises.
 */
function safeCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

export function auditCsvRecord(row: AuditRow): string[] {
  const e = presentAuditEvent(row);
  const json = (v: unknown) => (v === null || v === undefined ? '' : JSON.stringify(v));
  return [
    String(e.id),
    e.at,
    e.actorId === null ? '' : String(e.actorId),
    safeCell(e.actorLabel),
    e.action,
    e.subjectType,
    safeCell(e.subjectId ?? ''),
    json(e.before),
    json(e.after),
    e.network ?? '',
    e.prevHash,
    e.hash,
  ];
}
