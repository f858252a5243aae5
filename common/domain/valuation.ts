import { formatMoney } from './money';
import { optionLabel } from './options';

// The valuation report's vocabulary: value types, verdicts, grades, money (docs/product/valuation-report.md).

export const VALUE_TYPES = [
  { value: 'fair-market', label: 'Fair market value' },
  { value: 'insurance-replacement', label: 'Insurance replacement value' },
  { value: 'auction-estimate', label: 'Auction estimate' },
  { value: 'liquidation', label: 'Liquidation value' },
] as const;
export type ValueType = (typeof VALUE_TYPES)[number]['value'];

export const AUTHENTICITY_VERDICTS = [
  { value: 'authentic', label: 'Authentic' },
  { value: 'not-authentic', label: 'Not authentic' },
  { value: 'inconclusive', label: 'Inconclusive' },
] as const;
export type AuthenticityVerdict = (typeof AUTHENTICITY_VERDICTS)[number]['value'];

export const CONDITION_GRADES = [
  { value: 'mint', label: 'Mint' },
  { value: 'excellent', label: 'Excellent' },
  { value: 'very-good', label: 'Very good' },
  { value: 'good', label: 'Good' },
  { value: 'fair', label: 'Fair' },
  { value: 'poor', label: 'Poor' },
] as const;
export type ConditionGrade = (typeof CONDITION_GRADES)[number]['value'];

/** The ICOM Object ID fields a report may state, in the order they are shown. */
export const IDENTIFICATION_FIELDS = [
  { field: 'maker', label: 'Maker' },
  { field: 'period', label: 'Period' },
  { field: 'origin', label: 'Origin' },
  { field: 'marks', label: 'Marks and inscriptions' },
  { field: 'dimensions', label: 'Dimensions' },
  { field: 'materials', label: 'Materials' },
] as const;
export type IdentificationField = (typeof IDENTIFICATION_FIELDS)[number]['field'];

export const MAX_REPORT_PHOTOS = 6;
export const IDENTIFICATION_MAX = 255;

export const valueTypeLabel = (v: string) => optionLabel(VALUE_TYPES, v);
export const verdictLabel = (v: string) => optionLabel(AUTHENTICITY_VERDICTS, v);
export const gradeLabel = (v: string) => optionLabel(CONDITION_GRADES, v);

/** The currencies first offered in forms; any other active ISO 4217 code is accepted too. */
export const COMMON_CURRENCIES = ['USD', 'EUR', 'GBP', 'CHF', 'JPY', 'CAD', 'AUD'] as const;

/** "£12,000.00 – £18,000.00", or one amount when there is no range (amounts in minor units). */
export function formatValueRange(v: { low?: number | null; high: number; currency: string }): string {
  const high = formatMoney(v.high, v.currency);
  return v.low !== null && v.low !== undefined && v.low !== v.high
    ? `${formatMoney(v.low, v.currency)} – ${high}`
    : high;
}

/** The same in major units, as the API answers amounts: "£12,000.00 – £18,000.00". */
export function formatMajorRange(v: { low?: number | null; high: number; currency: string }): string {
  const money = (n: number) => {
    try {
      return new Intl.NumberFormat('en-GB', { style: 'currency', currency: v.currency }).format(n);
    } catch {
      return `${n} ${v.currency}`;
    }
  };
  return v.low !== null && v.low !== undefined && v.low !== v.high
    ? `${money(v.low)} – ${money(v.high)}`
    : money(v.high);
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** "2026-03-14" → "14 March 2026" (a calendar date, no time zone involved). */
export function dateInWords(isoDay: string): string {
  const [y, m, d] = isoDay.split('-').map(Number);
  if (!y || !m || !d) return isoDay;
  return `${d} ${MONTHS[m - 1] ?? ''} ${y}`;
}

/** True for a real calendar date written YYYY-MM-DD. */
export function isCalendarDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/**
 * The latest effective date that is not "in the future" anywhere: today in the earliest time zone
 * (UTC+14), so an expert working in any time zone can date a valuation today.
 */
export function latestEffectiveDate(now: Date = new Date()): string {
  return new Date(now.getTime() + 14 * 3_600_000).toISOString().slice(0, 10);
}
