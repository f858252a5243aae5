import type { ReportContent } from '../../../common/contracts/reports';
import { minorToNumber } from '../../../common/domain/money';

/**
 * A revision's stored content as the answers give it: amounts are kept in minor units and leave in
 * major units, like every amount the API takes (docs/product/valuation-report.md).
 */
export function presentReportContent(content: ReportContent | null): ReportContent | null {
  if (!content) return null;
  const v = content.valuation;
  return { ...content, valuation: v ? { ...v, ...valueInMajorUnits(v) } : null };
}

/** A stored valuation's amounts in major units. */
export function valueInMajorUnits(v: { low: number | null; high: number; currency: string }) {
  return {
    low: v.low === null ? null : minorToNumber(v.low, v.currency),
    high: minorToNumber(v.high, v.currency),
  };
}
