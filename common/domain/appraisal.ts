import { optionLabel } from './options';

// The appraisal report's vocabulary (docs/product/appraisal-report.md): the assignment's choices,
// the comparables' bound, the tax mode's window and the lab's default texts.

export const PROPERTY_INTERESTS = [
  { value: 'full-ownership', label: 'Full ownership' },
  { value: 'partial-interest', label: 'Partial interest' },
  { value: 'other', label: 'Other interest' },
] as const;
export type PropertyInterest = (typeof PROPERTY_INTERESTS)[number]['value'];

export const INSPECTION_TYPES = [
  { value: 'in-person', label: 'In person' },
  { value: 'photographs-only', label: 'Photographs only' },
  { value: 'in-person-and-laboratory', label: 'In person, with laboratory examination' },
] as const;
export type InspectionType = (typeof INSPECTION_TYPES)[number]['value'];

export const propertyInterestLabel = (v: string) => optionLabel(PROPERTY_INTERESTS, v);
export const inspectionLabel = (v: string) => optionLabel(INSPECTION_TYPES, v);

export const MAX_COMPARABLES = 12;
export const INTENDED_USE_MAX = 2000;
export const INTENDED_USERS_MAX = 500;

/** The purpose that puts a report in tax mode. */
export const CHARITABLE_DONATION = 'charitable-donation';

/** Tax mode: the value may be effective at most this many days before the contribution. */
export const TAX_DAYS_BEFORE_CONTRIBUTION = 60;
/** Tax mode: how many months after the contribution the value may still be effective, unless the lab sets otherwise. */
export const DEFAULT_TAX_FILING_WINDOW_MONTHS = 22;
export const MAX_TAX_FILING_WINDOW_MONTHS = 48;

/** How long a value holds before the owner is invited to have it valued again, unless the lab sets otherwise. */
export const DEFAULT_REVALUE_AFTER_MONTHS = 36;
export const MAX_REVALUE_AFTER_MONTHS = 120;
/** The owner is told this many days before the re-valuation date. */
export const REVALUATION_NOTICE_DAYS = 30;

/** "2026-03-14" plus `months` calendar months, clamped to the month's last day ("2026-01-31" + 1 → "2026-02-28"). */
export function addMonths(isoDay: string, months: number): string {
  const [y, m, d] = isoDay.split('-').map(Number) as [number, number, number];
  const first = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(d, last));
  return first.toISOString().slice(0, 10);
}

/** "2026-03-14" plus `days` days (negative to go back). */
export function addDays(isoDay: string, days: number): string {
  const t = new Date(`${isoDay}T00:00:00Z`).getTime() + days * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

/** True from `REVALUATION_NOTICE_DAYS` before the re-valuation date on (dates as YYYY-MM-DD, today in UTC). */
export function isRevaluationDue(revalueBy: string | null | undefined, now: Date = new Date()): boolean {
  if (!revalueBy) return false;
  return addDays(revalueBy, -REVALUATION_NOTICE_DAYS) <= now.toISOString().slice(0, 10);
}

export const DEFAULT_LIMITING_CONDITIONS = [
  '<p>This report gives our opinion of value for the intended use and users it names, as of its effective date. It is not valid for any other use, user or date.</p>',
  '<p>We have assumed that the owner holds good title, free of any claim, lien or restriction, unless the report says otherwise. We give no legal opinion on title or on export, import or sale restrictions.</p>',
  '<p>Attribution, age and condition are stated as our experts found them with the inspection and examinations described. Later evidence, conservation work or change of condition may change the value.</p>',
  '<p>Values rest on the markets and sales we considered, which may move after the effective date. Amounts are given in the currencies stated and are not converted.</p>',
  '<p>The laboratory has no present or intended interest in the item and its fee does not depend on the value reported. Nobody may rely on a copy of this report whose code does not verify on our verification page.</p>',
].join('');

export const DEFAULT_CERTIFICATION = [
  '<p>We certify that, to the best of our knowledge and belief:</p>',
  '<ul>',
  '<li>the statements of fact in this report are true and correct;</li>',
  '<li>the analyses, opinions and conclusions are limited only by the assumptions and conditions stated, and are our own impartial and unbiased professional work;</li>',
  '<li>we have no present or prospective interest in the item appraised and no personal interest in, or bias towards, the parties involved;</li>',
  '<li>our fee was not contingent on reaching a value, a direction in value, or any event resulting from the opinions stated;</li>',
  '<li>the signatories below examined the item as the report describes, and nobody else gave significant professional help unless named here.</li>',
  '</ul>',
].join('');

/** The statement a report made for income-tax purposes carries, on the PDF and the sample page. */
export const TAX_STATEMENT =
  'This appraisal was prepared for income-tax purposes, to support a deduction for a charitable contribution of the item it describes. The appraiser understands that a false or fraudulent overstatement of the value may expose them to penalties.';

/** The lab's appraisal texts and terms in force: its own, or the product's defaults (lab settings row or none). */
export function appraisalTerms(
  row:
    | {
        certificationTemplate: string | null;
        limitingConditionsTemplate: string | null;
        revalueAfterMonths: number;
        taxFilingWindowMonths: number;
      }
    | undefined,
) {
  return {
    certificationTemplate: row?.certificationTemplate || DEFAULT_CERTIFICATION,
    limitingConditionsTemplate: row?.limitingConditionsTemplate || DEFAULT_LIMITING_CONDITIONS,
    revalueAfterMonths: row?.revalueAfterMonths ?? DEFAULT_REVALUE_AFTER_MONTHS,
    taxFilingWindowMonths: row?.taxFilingWindowMonths ?? DEFAULT_TAX_FILING_WINDOW_MONTHS,
  };
}
