import { randomInt } from 'node:crypto';
import { REPORT_CODE_ALPHABET, REPORT_CODE_LENGTH } from '../../../common/domain/reports';

/** A new report code: 8 characters of the unambiguous alphabet from a cryptographic source (docs/product/reports-and-verification.md). */
export function newReportCode(): string {
  let code = '';
  for (let i = 0; i < REPORT_CODE_LENGTH; i++)
    code += REPORT_CODE_ALPHABET[randomInt(REPORT_CODE_ALPHABET.length)];
  return code;
}
