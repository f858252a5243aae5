import { z } from 'zod';
import { isCurrencyCode, parseAmount } from '../domain/money';
import {
  INSPECTION_TYPES,
  INTENDED_USE_MAX,
  INTENDED_USERS_MAX,
  MAX_COMPARABLES,
  PROPERTY_INTERESTS,
} from '../domain/appraisal';
import { isCalendarDate, latestEffectiveDate } from '../domain/valuation';
import { amountInput, currencyCode } from './lab';

// The appraisal report's parts beside the valuation (docs/product/appraisal-report.md): the
// assignment, the comparable sales, the re-valuation date and the tax appraisal.

export const APPRAISAL_MESSAGES = {
  assignmentRequired:
    'A valuation needs its assignment: intended use, users, value definition, inspection and conditions',
  intendedUse: 'Please state the intended use',
  intendedUseTooLong: `The intended use can have at most ${INTENDED_USE_MAX} characters`,
  intendedUsers: 'Please name the intended users',
  intendedUsersTooLong: `The intended users can have at most ${INTENDED_USERS_MAX} characters`,
  valueDefinition: 'Please give the definition of the value and its source',
  propertyInterest: 'Please choose the property interest',
  propertyInterestOther: 'Please describe the interest appraised',
  inspection: 'Please choose how the item was inspected',
  inspectionDate: 'Inspection date must be a date (YYYY-MM-DD)',
  inspectionFuture: 'Inspection date cannot be in the future',
  scopeOfWork: 'Please describe the scope of work',
  limitingConditions: 'Please state the limiting conditions',
  tooManyComparables: `A report can list at most ${MAX_COMPARABLES} comparable sales`,
  comparableDescription: 'Please describe the comparable item',
  comparableSource: 'Please name the source of the sale',
  saleDate: 'Sale date must be a date (YYYY-MM-DD)',
  saleFuture: 'Sale date cannot be in the future',
  pricePositive: 'The price must be more than 0',
  lotUrl: 'The lot link must be an http or https address',
  foreignComparablePhoto: "A comparable's photo must be one of this sample's photos",
  revalueBy: 'Re-valuation date must be a date (YYYY-MM-DD)',
  revalueAfterEffective: 'The re-valuation date must be after the effective date',
  revalueNeedsValue: 'A re-valuation date needs a valuation',
  taxRequired: 'A valuation for a charitable donation needs the tax appraisal details',
  donee: 'Please name the donee',
  contributionDate: 'Contribution date must be a date (YYYY-MM-DD)',
  dateAcquired: 'Date acquired must be a date (YYYY-MM-DD)',
  acquiredFuture: 'Date acquired cannot be in the future',
  howAcquired: 'Please state how the donor acquired the item',
  appraiserTaxId: "Please give the appraiser's taxpayer identification number",
  tooEarly: (days: number) =>
    `For a charitable donation the effective date can be at most ${days} days before the contribution date`,
  tooLate: (months: number) =>
    `For a charitable donation the effective date can be at most ${months} months after the contribution date`,
} as const;
const M = APPRAISAL_MESSAGES;

const emptyToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);
const values = <T extends readonly { value: string }[]>(list: T) =>
  list.map((o) => o.value) as unknown as readonly [T[number]['value'], ...T[number]['value'][]];

/**
 * A text that says something once its tags are taken away. `[^<>]` keeps the scan linear: with `[^>]`,
 * a long run of '<' without '>' costs quadratic time (a request could hold the server for minutes).
 */
const hasText = (html: string) =>
  html
    .replace(/<[^<>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .trim() !== '';

/** Rich text that must be given (cleaned on the server like element notes). */
const requiredRichText = (message: string) =>
  z.preprocess(emptyToNull, z.string(message).max(20_000).refine(hasText, message));
/** Rich text that may be left out; empty means none. */
const optionalRichText = z.preprocess(emptyToNull, z.string().max(20_000).nullable().optional());
const requiredText = (message: string, max: number, tooLong = `At most ${max} characters`) =>
  z.string(message).trim().min(1, message).max(max, tooLong);
const optionalText = (max: number) =>
  z.preprocess(emptyToNull, z.string().trim().max(max, `At most ${max} characters`).nullable().optional());

/** A calendar date no later than today anywhere. */
const pastDate = (invalid: string, future: string) =>
  z
    .string(invalid)
    .refine(isCalendarDate, invalid)
    .refine((d) => d <= latestEffectiveDate(), future);

export const assignmentInput = z
  .object({
    intendedUse: requiredText(M.intendedUse, INTENDED_USE_MAX, M.intendedUseTooLong),
    intendedUsers: requiredText(M.intendedUsers, INTENDED_USERS_MAX, M.intendedUsersTooLong),
    valueDefinition: requiredRichText(M.valueDefinition),
    propertyInterest: z.enum(values(PROPERTY_INTERESTS), M.propertyInterest),
    propertyInterestOther: optionalText(500),
    inspection: z.enum(values(INSPECTION_TYPES), M.inspection),
    inspectionDate: pastDate(M.inspectionDate, M.inspectionFuture),
    scopeOfWork: requiredRichText(M.scopeOfWork),
    extraordinaryAssumptions: optionalRichText,
    hypotheticalConditions: optionalRichText,
    limitingConditions: requiredRichText(M.limitingConditions),
  })
  .superRefine((a, ctx) => {
    if (a.propertyInterest === 'other' && !a.propertyInterestOther)
      ctx.addIssue({ code: 'custom', path: ['propertyInterestOther'], message: M.propertyInterestOther });
  });
export type AssignmentInput = z.input<typeof assignmentInput>;

/** An http or https address (a lot page); nothing else is ever linked from a report. */
const isWebAddress = (v: string) => {
  if (/\s/.test(v)) return false;
  try {
    const u = new URL(v);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
};

export const comparableInput = z
  .object({
    description: requiredText(M.comparableDescription, 500),
    source: requiredText(M.comparableSource, 255),
    saleDate: pastDate(M.saleDate, M.saleFuture),
    price: amountInput,
    currency: currencyCode,
    lotUrl: z.preprocess(
      emptyToNull,
      z.string(M.lotUrl).trim().max(2000, M.lotUrl).refine(isWebAddress, M.lotUrl).nullable().optional(),
    ),
    notes: optionalText(2000),
    photoFileId: z.preprocess(emptyToNull, z.number().int().positive().nullable().optional()),
  })
  .superRefine((c, ctx) => {
    if (!isCurrencyCode(c.currency)) return;
    const parsed = parseAmount(c.price, c.currency);
    if (!parsed.ok) ctx.addIssue({ code: 'custom', path: ['price'], message: parsed.message });
    else if (parsed.minor <= 0) ctx.addIssue({ code: 'custom', path: ['price'], message: M.pricePositive });
  });
export type ComparableInput = z.input<typeof comparableInput>;

export const comparablesInput = z
  .array(comparableInput, M.tooManyComparables)
  .max(MAX_COMPARABLES, M.tooManyComparables)
  .default([]);

export const revalueByInput = z.preprocess(
  emptyToNull,
  z.string(M.revalueBy).refine(isCalendarDate, M.revalueBy).nullable().optional(),
);

export const taxAppraisalInput = z.object({
  donee: requiredText(M.donee, 255),
  contributionDate: z.string(M.contributionDate).refine(isCalendarDate, M.contributionDate),
  dateAcquired: z.preprocess(emptyToNull, pastDate(M.dateAcquired, M.acquiredFuture).nullable().optional()),
  howAcquired: requiredText(M.howAcquired, 500),
  /** In the valuation's currency, major units. */
  costBasis: z.preprocess(emptyToNull, amountInput.nullable().optional()),
  appraiserTaxId: requiredText(M.appraiserTaxId, 50),
});
export type TaxAppraisalInput = z.input<typeof taxAppraisalInput>;

// ---- As stored with a revision (amounts in minor units) and answered (major units) ----------------

export const assignmentContent = z.object({
  intendedUse: z.string(),
  intendedUsers: z.string(),
  valueDefinition: z.string(),
  propertyInterest: z.enum(values(PROPERTY_INTERESTS)),
  propertyInterestOther: z.string().nullable(),
  inspection: z.enum(values(INSPECTION_TYPES)),
  inspectionDate: z.string(),
  scopeOfWork: z.string(),
  extraordinaryAssumptions: z.string().nullable(),
  hypotheticalConditions: z.string().nullable(),
  limitingConditions: z.string(),
});
export type AssignmentContent = z.infer<typeof assignmentContent>;

export const comparableContent = z.object({
  description: z.string(),
  source: z.string(),
  saleDate: z.string(),
  price: z.number(),
  currency: z.string(),
  lotUrl: z.string().nullable(),
  notes: z.string().nullable(),
  photoFileId: z.number().nullable(),
});
export type ComparableContent = z.infer<typeof comparableContent>;

export const taxAppraisalContent = z.object({
  donee: z.string(),
  contributionDate: z.string(),
  dateAcquired: z.string().nullable(),
  howAcquired: z.string(),
  costBasis: z.number().nullable(),
  appraiserTaxId: z.string(),
});
export type TaxAppraisalContent = z.infer<typeof taxAppraisalContent>;

/** What a staff member's report editor starts from (GET /api/staff/report-defaults). */
export const reportDefaultsResponse = z.object({
  limitingConditionsTemplate: z.string(),
  /** The lab's currency (its settings): a new valuation and its comparables start in it. */
  currency: z.string(),
  revalueAfterMonths: z.number().int(),
  taxFilingWindowMonths: z.number().int(),
});
export type ReportDefaults = z.infer<typeof reportDefaultsResponse>;
