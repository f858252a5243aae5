import { normalizeReportCode, REPORT_CODE_PATTERN } from '../../../common/domain/reports';
import type { Database } from '../../db/client';
import { type IssuedRow, isIssued, prepareVerificationLookup } from './verification.queries';

/** The issued report behind a code, or null for unknown codes and samples without an issued report. */
export type FindIssued = (rawCode: string) => Promise<{ code: string; row: IssuedRow | null }>;

/** Builds the lookup once (its SQL is prepared for the whole process). */
export function issuedReportFinder(database: Database): FindIssued {
  const lookup = prepareVerificationLookup(database);
  return (rawCode) => {
    const code = normalizeReportCode(rawCode);
    if (!REPORT_CODE_PATTERN.test(code)) return Promise.resolve({ code, row: null });
    return lookup(code).then((row) => ({ code, row: isIssued(row) ? row : null }));
  };
}
