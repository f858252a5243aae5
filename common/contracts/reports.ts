import { z } from 'zod';
import { ELEMENT_QUALITIES, MAX_TOTAL_PERCENTAGE } from '../domain/reports';

// Report elements and issuing (docs/product/reports-and-verification.md, limits.md).

export const ELEMENT_REQUIRED_MESSAGE = 'Please fill in element name and valid percentage';
export const ELEMENTS_REQUIRED_MESSAGE = 'Please add at least one analysis element';
export const TOTAL_OVER_100_MESSAGE = 'Total percentage of elements cannot exceed 100%';
export const PERCENTAGE_DECIMALS_MESSAGE = 'Percentage can have at most 2 decimal places';
export const duplicateElementMessage = (name: string) => `Element "${name}" already exists in the report`;
export const elementAddedMessage = (name: string) => `Element "${name}" added to the report`;

const emptyToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);

/** True when a number has at most two decimals (tolerating binary floating point). */
export function hasAtMostTwoDecimals(n: number): boolean {
  return Math.abs(Math.round(n * 100) - n * 100) < 1e-6;
}

export const reportElementInput = z.object({
  element: z.string(ELEMENT_REQUIRED_MESSAGE).trim().min(1, ELEMENT_REQUIRED_MESSAGE).max(255),
  percentage: z
    .number(ELEMENT_REQUIRED_MESSAGE)
    .gt(0, ELEMENT_REQUIRED_MESSAGE)
    .max(MAX_TOTAL_PERCENTAGE, 'Percentage must be between 0 and 100')
    .refine(hasAtMostTwoDecimals, PERCENTAGE_DECIMALS_MESSAGE),
  purity: z.preprocess(emptyToNull, z.string().trim().max(255).nullable().optional()),
  quality: z.preprocess(emptyToNull, z.enum(ELEMENT_QUALITIES).nullable().optional()),
  notes: z.preprocess(emptyToNull, z.string().max(20_000).nullable().optional()),
});
export type ReportElementInput = z.infer<typeof reportElementInput>;

/** Body of POST /api/samples/{id}/report and POST /api/staff/samples/{id}/report. */
export const issueReportBody = z.object({
  elements: z.array(reportElementInput, ELEMENTS_REQUIRED_MESSAGE).min(1, ELEMENTS_REQUIRED_MESSAGE).max(100),
});
export type IssueReportBody = z.infer<typeof issueReportBody>;

/** The rules that span rows: unique names ignoring case, total at most 100. First problem wins. */
export function elementSetProblem(
  elements: readonly { element: string; percentage: number }[],
): { kind: 'duplicate' | 'total'; message: string; index: number } | null {
  const seen = new Set<string>();
  let totalHundredths = 0;
  for (const [index, e] of elements.entries()) {
    const key = e.element.trim().toLowerCase();
    if (seen.has(key))
      return { kind: 'duplicate', message: duplicateElementMessage(e.element.trim()), index };
    seen.add(key);
    totalHundredths += Math.round(e.percentage * 100);
    if (totalHundredths > MAX_TOTAL_PERCENTAGE * 100)
      return { kind: 'total', message: TOTAL_OVER_100_MESSAGE, index };
  }
  return null;
}

export const issueReportResponse = z.object({
  reportCode: z.string(),
  revision: z.number(),
  issuedAt: z.string(),
  sha256: z.string(),
  /** 'generated' for a first issue, 'updated' when the sample already had a code (docs/product/reports-and-verification.md). */
  action: z.enum(['generated', 'updated']),
  message: z.string(),
});
export type IssueReportResponse = z.infer<typeof issueReportResponse>;

export const revokeReportBody = z.object({
  reason: z.string('A reason is required').trim().min(1, 'A reason is required').max(1000),
});
export type RevokeReportBody = z.infer<typeof revokeReportBody>;

export const revokeReportResponse = z.object({
  reportCode: z.string(),
  revoked: z.literal(true),
  revokedReason: z.string(),
  revokedAt: z.string(),
});
export type RevokeReportResponse = z.infer<typeof revokeReportResponse>;

export const reportCodeParams = z.object({ reportCode: z.string().max(64) });
