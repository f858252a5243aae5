import { z } from 'zod';
import { ELEMENT_QUALITIES, MAX_TOTAL_PERCENTAGE } from '../domain/reports';
import { isCurrencyCode, parseAmount } from '../domain/money';
import { amountInput, checkAmount, currencyCode } from './lab';
import {
  APPRAISAL_MESSAGES,
  assignmentContent,
  assignmentInput,
  comparableContent,
  comparablesInput,
  revalueByInput,
  taxAppraisalContent,
  taxAppraisalInput,
} from './appraisal';
import {
  AUTHENTICITY_VERDICTS,
  CONDITION_GRADES,
  IDENTIFICATION_MAX,
  isCalendarDate,
  latestEffectiveDate,
  MAX_REPORT_PHOTOS,
  VALUE_TYPES,
} from '../domain/valuation';

// Report elements and issuing (docs/product/reports-and-verification.md, limits.md).

export const ELEMENT_REQUIRED_MESSAGE = 'Please fill in element name and valid percentage';
export const ELEMENTS_REQUIRED_MESSAGE = 'Please add at least one analysis element';
export const TOTAL_OVER_100_MESSAGE = 'Total percentage of elements cannot exceed 100%';
export const PERCENTAGE_DECIMALS_MESSAGE = 'Percentage can have at most 2 decimal places';
export const duplicateElementMessage = (name: string) => `Element "${name}" already exists in the report`;
export const elementAddedMessage = (name: string) => `Element "${name}" added to the report`;
export const elementUpdatedMessage = (name: string) => `Element "${name}" updated`;

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

// ---- The valuation report (docs/product/valuation-report.md) ------------------------------------

export const VALUATION_MESSAGES = {
  highRequired: 'Please enter the value',
  lowAboveHigh: 'Low value cannot be more than the high value',
  valueType: 'Please choose a value type',
  effectiveDate: 'Effective date must be a date (YYYY-MM-DD)',
  futureDate: 'Effective date cannot be in the future',
  verdict: 'Please choose an authenticity verdict',
  grade: 'Please choose a condition grade',
  tooManyPhotos: `A report can show at most ${MAX_REPORT_PHOTOS} photos`,
  duplicatePhoto: 'Each photo can appear only once on the report',
  foreignPhoto: "Only this sample's photos can appear on its report",
  textTooLong: `At most ${IDENTIFICATION_MAX} characters`,
  elementsOrVerdict:
    'Please add at least one analysis element, or a valuation, authenticity or condition verdict',
} as const;
const V = VALUATION_MESSAGES;

const values = <T extends readonly { value: string }[]>(list: T) =>
  list.map((o) => o.value) as unknown as readonly [T[number]['value'], ...T[number]['value'][]];

/** Rich text (cleaned on the server like element notes); empty means none. */
const richText = z.preprocess(emptyToNull, z.string().max(20_000).nullable().optional());

/** Amounts in major units (12000, "12000.50"), read exactly into minor units on the server (`parseAmount`). */
export const valuationInput = z
  .object({
    low: z.preprocess(emptyToNull, amountInput.nullable().optional()),
    high: z.preprocess(emptyToNull, z.union([z.number(), z.string()], V.highRequired)),
    currency: currencyCode,
    valueType: z.enum(values(VALUE_TYPES), V.valueType),
    effectiveDate: z
      .string(V.effectiveDate)
      .refine(isCalendarDate, V.effectiveDate)
      .refine((d) => d <= latestEffectiveDate(), V.futureDate),
    basis: richText,
  })
  .superRefine((v, ctx) => {
    // A bad currency is its own issue; amounts are read only in a currency that exists.
    if (!isCurrencyCode(v.currency)) return;
    const currency = v.currency;
    checkAmount(ctx, v.high, currency, ['high']);
    if (v.low === null || v.low === undefined) return;
    checkAmount(ctx, v.low, currency, ['low']);
    const low = parseAmount(v.low, currency);
    const high = parseAmount(v.high, currency);
    if (low.ok && high.ok && low.minor > high.minor)
      ctx.addIssue({ code: 'custom', path: ['low'], message: V.lowAboveHigh });
  });
export type ValuationInput = z.infer<typeof valuationInput>;

export const authenticityInput = z.object({
  verdict: z.enum(values(AUTHENTICITY_VERDICTS), V.verdict),
  rationale: richText,
});
export const conditionInput = z.object({
  grade: z.enum(values(CONDITION_GRADES), V.grade),
  notes: richText,
});
const idText = z.preprocess(
  emptyToNull,
  z.string().trim().max(IDENTIFICATION_MAX, V.textTooLong).nullable().optional(),
);
export const identificationInput = z.object({
  maker: idText,
  period: idText,
  origin: idText,
  marks: idText,
  dimensions: idText,
  materials: idText,
});
export type IdentificationInput = z.infer<typeof identificationInput>;

/** Body of POST /api/samples/{id}/report and POST /api/staff/samples/{id}/report. */
/** The status history's note when issuing (or approving) a report also completes the sample. */
export const REPORT_COMPLETED_NOTE = 'Report issued';

export const issueReportBody = z
  .object({
    elements: z.array(reportElementInput, ELEMENTS_REQUIRED_MESSAGE).max(100).default([]),
    valuation: valuationInput.nullable().optional(),
    authenticity: authenticityInput.nullable().optional(),
    condition: conditionInput.nullable().optional(),
    identification: identificationInput.nullable().optional(),
    summary: richText,
    photoIds: z
      .array(z.number().int().positive(), V.tooManyPhotos)
      .max(MAX_REPORT_PHOTOS, V.tooManyPhotos)
      .refine((ids) => new Set(ids).size === ids.length, V.duplicatePhoto)
      .default([]),
    /**
     * Also mark the sample Completed, in the same transaction as the report; with second review on,
     * when the report is approved (docs/product/valuation-report.md).
     */
    markCompleted: z.boolean({ message: 'markCompleted must be true or false' }).optional(),
    /** The appraisal's assignment (docs/product/appraisal-report.md): required with a valuation. */
    assignment: assignmentInput.nullable().optional(),
    comparables: comparablesInput,
    revalueBy: revalueByInput,
    /** Required when the sample's purpose is a charitable donation (checked on the server, which knows it). */
    taxAppraisal: taxAppraisalInput.nullable().optional(),
  })
  .superRefine((b, ctx) => {
    // The element table may be empty only when the report gives a verdict of its own.
    if (b.elements.length === 0 && !b.valuation && !b.authenticity && !b.condition)
      ctx.addIssue({
        code: 'custom',
        path: ['elements'],
        message: b.identification || b.summary ? V.elementsOrVerdict : ELEMENTS_REQUIRED_MESSAGE,
      });
    // A value is an appraisal: it states for whom, for what and on which terms it was made.
    if (b.valuation && !b.assignment)
      ctx.addIssue({ code: 'custom', path: ['assignment'], message: APPRAISAL_MESSAGES.assignmentRequired });
    if (b.revalueBy) {
      if (!b.valuation)
        ctx.addIssue({ code: 'custom', path: ['revalueBy'], message: APPRAISAL_MESSAGES.revalueNeedsValue });
      else if (b.revalueBy <= b.valuation.effectiveDate)
        ctx.addIssue({
          code: 'custom',
          path: ['revalueBy'],
          message: APPRAISAL_MESSAGES.revalueAfterEffective,
        });
    }
  });
export type IssueReportBody = z.infer<typeof issueReportBody>;
export type IssueReportInput = z.input<typeof issueReportBody>;

/**
 * What a revision states beside its elements, stored with it and shown by the PDF and the sample page.
 * Stored with the amounts in minor units; answers give them in major units (`presentReportContent`).
 */
export const certificationContent = z.object({
  text: z.string(),
  signatories: z.array(
    z.object({
      role: z.enum(['analyst', 'reviewer']),
      name: z.string(),
      qualifications: z.string().nullable(),
    }),
  ),
});
export type CertificationContent = z.infer<typeof certificationContent>;

export const reportContent = z.object({
  valuation: z
    .object({
      low: z.number().nullable(),
      high: z.number(),
      currency: z.string(),
      valueType: z.enum(values(VALUE_TYPES)),
      effectiveDate: z.string(),
      basis: z.string().nullable(),
    })
    .nullable(),
  authenticity: z
    .object({ verdict: z.enum(values(AUTHENTICITY_VERDICTS)), rationale: z.string().nullable() })
    .nullable(),
  condition: z.object({ grade: z.enum(values(CONDITION_GRADES)), notes: z.string().nullable() }).nullable(),
  identification: z
    .object({
      maker: z.string().nullable(),
      period: z.string().nullable(),
      origin: z.string().nullable(),
      marks: z.string().nullable(),
      dimensions: z.string().nullable(),
      materials: z.string().nullable(),
    })
    .nullable(),
  summary: z.string().nullable(),
  photoIds: z.array(z.number()),
  /** The appraisal's parts (docs/product/appraisal-report.md); null or empty on an assay-only report. */
  assignment: assignmentContent.nullable(),
  comparables: z.array(comparableContent),
  revalueBy: z.string().nullable(),
  taxAppraisal: taxAppraisalContent.nullable(),
  /**
   * The Certification as the revision's PDF states it: the lab's text and each signatory with their
   * qualifications, taken when the revision became public. Null on an assay-only report, a draft
   * awaiting review, and revisions issued before it was kept.
   */
  certification: certificationContent.nullable(),
});
export type ReportContent = z.infer<typeof reportContent>;

/** As a revision's column holds it: revisions issued before the appraisal parts existed lack them. */
export type StoredReportContent = Omit<
  ReportContent,
  'assignment' | 'comparables' | 'revalueBy' | 'taxAppraisal' | 'certification'
> &
  Partial<Pick<ReportContent, 'assignment' | 'comparables' | 'revalueBy' | 'taxAppraisal' | 'certification'>>;

/**
 * The part of a revision's content that public verification shows (the verification answer's fields),
 * as `report_public_faces` keeps it: the identification, the verdict and grade without their notes,
 * the assignment's use and inspection, the photos and the valuation without its basis.
 */
export type PublicReportFace = {
  identification: ReportContent['identification'];
  authenticity: Pick<NonNullable<ReportContent['authenticity']>, 'verdict'> | null;
  condition: Pick<NonNullable<ReportContent['condition']>, 'grade'> | null;
  assignment: Pick<NonNullable<ReportContent['assignment']>, 'intendedUse' | 'inspection'> | null;
  photoIds: number[] | null;
  valuation: Omit<NonNullable<ReportContent['valuation']>, 'basis'> | null;
};

/** A report element as `report_public_faces` keeps it for verification (the percentage as stored: numeric). */
export type PublicFaceElement = {
  element: string;
  percentage: number | string | null;
  purity: string | null;
  quality: string | null;
};

/** A stored content with the parts it lacks filled as "none". */
export function fullReportContent(c: StoredReportContent): ReportContent {
  return {
    ...c,
    assignment: c.assignment ?? null,
    comparables: c.comparables ?? [],
    revalueBy: c.revalueBy ?? null,
    taxAppraisal: c.taxAppraisal ?? null,
    certification: c.certification ?? null,
  };
}

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
  /** 'awaiting-review' when the lab requires a second review: nothing is public yet (docs/product/valuation-report.md). */
  state: z.enum(['issued', 'awaiting-review']),
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
