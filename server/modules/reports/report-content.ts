import {
  fullReportContent,
  type ReportContent,
  type StoredReportContent,
} from '../../../common/contracts/reports';
import { minorToNumber } from '../../../common/domain/money';

/**
 * A revision's stored content as the answers give it: amounts (the value, the comparables' prices, the
 * cost basis) are kept in minor units and leave in major units, like every amount the API takes
 * (docs/product/valuation-report.md, appraisal-report.md). Parts a revision predates leave as "none".
 */
export function presentReportContent(stored: StoredReportContent | null): ReportContent | null {
  if (!stored) return null;
  const content = fullReportContent(stored);
  const v = content.valuation;
  const t = content.taxAppraisal;
  return {
    ...content,
    valuation: v ? { ...v, ...valueInMajorUnits(v) } : null,
    comparables: content.comparables.map((c) => ({ ...c, price: minorToNumber(c.price, c.currency) })),
    taxAppraisal:
      t && v ? { ...t, costBasis: t.costBasis === null ? null : minorToNumber(t.costBasis, v.currency) } : t,
  };
}

/** A stored valuation's amounts in major units. */
export function valueInMajorUnits(v: { low: number | null; high: number; currency: string }) {
  return {
    low: v.low === null ? null : minorToNumber(v.low, v.currency),
    high: minorToNumber(v.high, v.currency),
  };
}
