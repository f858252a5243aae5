import { z } from 'zod';
import { reportContent } from './reports';
import {
  CATEGORIES,
  COUNTRIES,
  PURPOSES,
  RELATIONSHIPS,
  SAMPLE_STATUSES,
  URGENCY_LEVELS,
  VALUE_RANGES,
} from '../domain/samples';
import { QUOTE_STATUSES } from '../domain/quotes';
import { photoCopyFields } from './photos';
import { quoteSchema } from './quotes';
import { custodySummary } from './custody';
import { checkAmount, CURRENCY_INVALID } from './lab';
import { isCurrencyCode } from '../domain/money';

// The sample as it leaves the server (docs/product/api.md). Dates are ISO-8601 strings.

const isoDate = z.string();
const text = z.string().nullable();

export const personName = z.object({ firstName: z.string().nullable(), lastName: z.string().nullable() });
export type PersonName = z.infer<typeof personName>;

export const sampleSchema = z.object({
  id: z.number(),
  userId: z.number(),
  submitterName: z.string(),
  submitterEmail: z.string(),
  submitterPhone: text,
  submitterCountry: text,
  isPersonalSubmission: z.boolean(),
  representativeEmail: text,
  relationshipToOwner: text,
  itemName: z.string(),
  category: z.string(),
  estimatedAge: text,
  description: z.string(),
  dimensions: text,
  weight: text,
  materials: text,
  expertValuation: z.boolean(),
  authenticityCheck: z.boolean(),
  conditionAssessment: z.boolean(),
  provenanceResearch: z.boolean(),
  purposeOfValuation: text,
  urgencyLevel: z.string(),
  estimatedValueRange: text,
  specialInstructions: text,
  isRepresentative: z.boolean(),
  representativeName: text,
  representativeRelation: text,
  clientName: text,
  status: z.string(),
  submissionDate: isoDate,
  lastUpdated: isoDate,
  assignedStaffId: z.number().nullable(),
  reportGenerated: z.boolean(),
  reportGeneratedAt: isoDate.nullable(),
  reportGeneratedBy: z.number().nullable(),
  reportCode: text,
  reportRevokedAt: isoDate.nullable(),
  reportRevokedReason: text,
  createdAt: isoDate,
  updatedAt: isoDate,
  /** The expected completion date, YYYY-MM-DD (docs/product/quotes.md). */
  expectedCompletionDate: z.string(),
  /** Past the expected date and not completed. */
  overdue: z.boolean(),
  /** The latest quote's status as the reader sees it (sent, accepted, declined, expired, withdrawn), or null. */
  quoteStatus: z.enum(QUOTE_STATUSES).nullable(),
  /** The issued value's re-valuation date, YYYY-MM-DD, or null (docs/product/appraisal-report.md). */
  revalueBy: z.string().nullable(),
  /** True from 30 days before `revalueBy` while the report stands: time to have the item valued again. */
  revaluationDue: z.boolean(),

  /** Where the physical item is (docs/product/custody.md). */
  custody: custodySummary,
  /** The owner's value for insurance in transit and custody, in major units of `declaredCurrency`; null when none. */
  declaredValue: z.number().nullable(),
  declaredCurrency: z.string().nullable(),
});
export type Sample = z.infer<typeof sampleSchema>;

/** A list row's picture: the sample's first photo (docs/product/photos.md). */
export const listThumbnail = z.object({
  /** The first photo's thumbnail; null while it is made or when there is none. */
  thumbnailUrl: z.string().nullable(),
  /** True while that photo's copies are still being made: ask again shortly. */
  photoProcessing: z.boolean(),
});
export type ListThumbnail = z.infer<typeof listThumbnail>;

/** What staff and admins read of a sample also carries the owner's and the assigned staff member's names. */
const sampleWithNames = sampleSchema.extend({
  user: personName.nullable(),
  assignedStaff: personName.nullable(),
});
export type SampleWithNames = z.infer<typeof sampleWithNames>;

/** A row of the admin's sample list: the record, both names and the row's thumbnail. */
export const sampleListItem = sampleWithNames.extend(listThumbnail.shape);
export type SampleListItem = z.infer<typeof sampleListItem>;

/**
 * GET /api/samples: the caller's own samples as docs/product/api.md lists them (id, itemName, submissionDate,
 * status, reportCode, service flags) plus the few fields the dashboards show next to them. The full
 * record is GET /api/samples/{id} (docs/decisions/0004).
 */
export const ownSampleListItem = sampleSchema
  .pick({
    id: true,
    itemName: true,
    category: true,
    status: true,
    urgencyLevel: true,
    submissionDate: true,
    lastUpdated: true,
    reportGenerated: true,
    reportCode: true,
    reportRevokedAt: true,
    expertValuation: true,
    authenticityCheck: true,
    conditionAssessment: true,
    provenanceResearch: true,
    expectedCompletionDate: true,
    overdue: true,
    quoteStatus: true,
    revalueBy: true,
    revaluationDue: true,

    custody: true,
  })
  .extend(listThumbnail.shape)
  /** The collection the sample is in (docs/product/collections.md), or null. */
  .extend({ collectionId: z.number().int().nullable() });
export type OwnSampleListItem = z.infer<typeof ownSampleListItem>;

export const sampleFileSchema = z.object({
  id: z.number(),
  sampleId: z.number(),
  fileName: z.string(),
  originalName: z.string(),
  fileType: z.string(),
  fileSize: z.number(),
  fileCategory: z.enum(['photo', 'document']),
  uploadDate: isoDate,
  ...photoCopyFields.shape,
});
export type SampleFile = z.infer<typeof sampleFileSchema>;

export const reportElementSchema = z.object({
  id: z.number(),
  sampleId: z.number(),
  element: z.string(),
  percentage: z.number(),
  purity: text,
  quality: text,
  notes: text,
  createdAt: isoDate,
});
export type ReportElement = z.infer<typeof reportElementSchema>;

export const statusHistoryEntry = z.object({
  id: z.number(),
  status: z.string(),
  comment: text,
  createdAt: isoDate,
  updatedBy: z.object({ id: z.number(), firstName: text, lastName: text }).nullable(),
});
export type StatusHistoryEntry = z.infer<typeof statusHistoryEntry>;

/** GET /api/samples/{id} (docs/product/api.md). */
export const sampleDetail = sampleWithNames.extend({
  files: z.array(sampleFileSchema),
  reportElements: z.array(reportElementSchema),
  statusHistory: z.array(statusHistoryEntry),
  /** What the current issued revision states beside its elements (docs/product/valuation-report.md); null when none. */
  report: reportContent.nullable(),
  /** The newest quote (docs/product/quotes.md), or null when none was sent. */
  quote: quoteSchema.nullable(),
});
export type SampleDetail = z.infer<typeof sampleDetail>;

// ---- Submission (POST /api/samples, docs/product/limits.md, messages.md) -------------------------------------------------
// One schema for the server (multipart text fields, booleans as text) and the web form (booleans).

export const SAMPLE_SUBMISSION_MESSAGES = {
  photoRequired: 'At least one photo is required.',
  serviceRequired: 'At least one service must be selected.',
  submitterNameRequired: 'Name is required',
  itemNameRequired: 'Item name is required',
  categoryRequired: 'Category is required',
  descriptionRequired: 'Description is required',
  invalidEmail: 'Invalid email address',
  invalidUrgency: 'Urgency level must be standard or urgent',
  invalidOption: 'Please choose one of the listed options',
} as const;

const M = SAMPLE_SUBMISSION_MESSAGES;
const TEXT_MAX = 255;
const LONG_TEXT_MAX = 10_000;

/** A checkbox: a boolean from the form, 'true'/'false' (or 'on') from multipart text. */
const flag = z
  .union([z.boolean(), z.enum(['true', 'false', 'on', '1', '0', ''])])
  .optional()
  .transform((v) => v === true || v === 'true' || v === 'on' || v === '1');

const required = (message: string, max = TEXT_MAX) =>
  z.string({ error: message }).trim().min(1, message).max(max, `At most ${max} characters`);

/** Optional text: blank becomes null. */
const optional = (max = TEXT_MAX) =>
  z
    .string()
    .trim()
    .max(max, `At most ${max} characters`)
    .optional()
    .nullable()
    .transform((v) => (v ? v : null));

const optionalEmail = z
  .string()
  .trim()
  .max(TEXT_MAX)
  .optional()
  .nullable()
  .refine((v) => !v || z.email().safeParse(v).success, M.invalidEmail)
  .transform((v) => (v ? v : null));

/** One of an option set of common/domain/samples.ts, or blank (null). */
const optionalChoice = (values: readonly string[]) =>
  z
    .string()
    .trim()
    .optional()
    .nullable()
    .refine((v) => !v || values.includes(v), M.invalidOption)
    .transform((v) => (v ? v : null));

const values = (options: readonly { value: string }[]) => options.map((o) => o.value);

export const sampleSubmissionFields = z
  .object({
    submitterName: required(M.submitterNameRequired),
    submitterEmail: z.string({ error: M.invalidEmail }).trim().max(TEXT_MAX).pipe(z.email(M.invalidEmail)),
    submitterPhone: optional(),
    submitterCountry: optionalChoice(values(COUNTRIES)),
    isPersonalSubmission: z
      .union([z.boolean(), z.enum(['true', 'false', 'on', '1', '0', ''])])
      .optional()
      .transform((v) => v === undefined || v === true || v === 'true' || v === 'on' || v === '1'),
    representativeName: optional(),
    representativeEmail: optionalEmail,
    relationshipToOwner: optionalChoice(values(RELATIONSHIPS)),
    clientName: optional(),
    itemName: required(M.itemNameRequired),
    category: z
      .string({ error: M.categoryRequired })
      .trim()
      .min(1, M.categoryRequired)
      .refine((v) => !v || values(CATEGORIES).includes(v), M.invalidOption),
    estimatedAge: optional(),
    description: required(M.descriptionRequired, LONG_TEXT_MAX),
    dimensions: optional(),
    weight: optional(),
    materials: optional(),
    expertValuation: flag,
    authenticityCheck: flag,
    conditionAssessment: flag,
    provenanceResearch: flag,
    purposeOfValuation: optionalChoice(values(PURPOSES)),
    urgencyLevel: z
      .string()
      .trim()
      .optional()
      .transform((v) => (v ? v : 'standard'))
      .refine((v) => (URGENCY_LEVELS as readonly string[]).includes(v), M.invalidUrgency),
    estimatedValueRange: optionalChoice(values(VALUE_RANGES)),
    specialInstructions: optional(LONG_TEXT_MAX),
    /** Accepted for completeness (docs/product/statuses.md); a new sample always starts 'submitted'. */
    status: z.enum(SAMPLE_STATUSES).optional(),
    /** The owner's value for insurance in transit and custody (docs/product/custody.md): optional, with its currency. */
    declaredValue: optional(32),
    declaredCurrency: z
      .string()
      .trim()
      .toUpperCase()
      .max(3, CURRENCY_INVALID)
      .optional()
      .nullable()
      .transform((v) => (v ? v : null)),
  })
  .superRefine((v, ctx) => {
    if (v.declaredValue !== null) {
      if (!v.declaredCurrency || !isCurrencyCode(v.declaredCurrency))
        ctx.addIssue({ code: 'custom', path: ['declaredCurrency'], message: CURRENCY_INVALID });
      else checkAmount(ctx, v.declaredValue, v.declaredCurrency, ['declaredValue']);
    } else if (v.declaredCurrency && !isCurrencyCode(v.declaredCurrency)) {
      ctx.addIssue({ code: 'custom', path: ['declaredCurrency'], message: CURRENCY_INVALID });
    }
    if (!v.expertValuation && !v.authenticityCheck && !v.conditionAssessment && !v.provenanceResearch) {
      ctx.addIssue({ code: 'custom', path: ['services'], message: M.serviceRequired });
    }
  });
/** What the form holds / the multipart text carries. */
export type SampleSubmissionInput = z.input<typeof sampleSubmissionFields>;
/** What the server stores after validation. */
export type SampleSubmission = z.output<typeof sampleSubmissionFields>;

/** The text field names of the submission, in the order the form sends them. */
export const SAMPLE_SUBMISSION_FIELD_NAMES = Object.keys(
  sampleSubmissionFields.shape,
) as (keyof SampleSubmissionInput)[];
