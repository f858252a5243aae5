import { issueReportBody, type IssueReportBody, type ReportContent } from '../../../common/contracts/reports';
import type { SampleDetail } from '../../../common/contracts/samples';
import { DEFAULT_CURRENCY } from '../../../common/domain/money';
import { IDENTIFICATION_FIELDS, type IdentificationField } from '../../../common/domain/valuation';
import { CHARITABLE_DONATION } from '../../../common/domain/appraisal';
import { optionLabel, PURPOSES } from '../../../common/domain/samples';
import type { ELEMENT_QUALITIES } from '../../../common/domain/reports';

// The report being written, shared by the 'Generate Analysis Report' dialog and the sample page's
// panel (docs/product/valuation-report.md): one draft shape, one way to fill it from the issued
// report, one way to turn it into the issuing body and check it with the server's own schema.

export type DraftElement = {
  key: string;
  element: string;
  percentage: number;
  purity: string;
  quality: string;
  notes: string;
};

let keySeq = 0;
export const draftKey = () => `el-${++keySeq}`;

/** Rows worth sending: a name and a percentage above 0 (docs/product/limits.md). */
export function elementsToSend(rows: DraftElement[]) {
  return rows
    .filter((r) => r.element.trim() !== '' && r.percentage > 0)
    .map((r) => ({
      element: r.element.trim(),
      percentage: r.percentage,
      purity: r.purity.trim() || null,
      quality: (r.quality || null) as (typeof ELEMENT_QUALITIES)[number] | null,
      notes: r.notes.trim() || null,
    }));
}

export type ValuationDraft = {
  low: string;
  high: string;
  currency: string;
  valueType: string;
  effectiveDate: string;
  basis: string;
};

export type AssignmentDraft = {
  intendedUse: string;
  intendedUsers: string;
  valueDefinition: string;
  propertyInterest: string;
  propertyInterestOther: string;
  inspection: string;
  inspectionDate: string;
  scopeOfWork: string;
  extraordinaryAssumptions: string;
  hypotheticalConditions: string;
  limitingConditions: string;
};

export type ComparableDraft = {
  key: string;
  description: string;
  source: string;
  saleDate: string;
  price: string;
  currency: string;
  lotUrl: string;
  notes: string;
  photoFileId: number | null;
};

export type TaxDraft = {
  donee: string;
  contributionDate: string;
  dateAcquired: string;
  howAcquired: string;
  costBasis: string;
  appraiserTaxId: string;
};

/** What the editor pre-fills a new appraisal with: the lab's limiting conditions (GET /api/staff/report-defaults). */
export type AppraisalDefaults = { limitingConditionsTemplate: string; currency?: string };

export type ReportDraft = {
  rows: DraftElement[];
  identification: Record<IdentificationField, string>;
  verdict: string;
  rationale: string;
  grade: string;
  conditionNotes: string;
  valuation: ValuationDraft;
  summary: string;
  photoIds: number[];
  assignment: AssignmentDraft;
  comparables: ComparableDraft[];
  /** Empty: the server sets the effective date plus the lab's re-valuation months. */
  revalueBy: string;
  tax: TaxDraft;
  /** The sample's purpose is a charitable donation: the tax details are asked for and sent. */
  taxMode: boolean;
};

/** Field errors keyed by the body's path ('valuation.low', 'photoIds', 'elements'). */
export type DraftErrors = Record<string, string>;

type ElementLike = {
  element: string;
  percentage: number | string;
  purity: string | null;
  quality: string | null;
  notes: string | null;
};

/** Existing elements become editable draft rows (the dialog opens with the current elements). */
export function toDraftRows(elements: readonly ElementLike[]): DraftElement[] {
  return elements.map((e) => ({
    key: draftKey(),
    element: e.element,
    percentage: Number(e.percentage),
    purity: e.purity ?? '',
    quality: e.quality ?? '',
    notes: e.notes ?? '',
  }));
}

const emptyIdentification = () =>
  Object.fromEntries(IDENTIFICATION_FIELDS.map(({ field }) => [field, ''])) as Record<
    IdentificationField,
    string
  >;

export const newComparable = (currency: string): ComparableDraft => ({
  key: draftKey(),
  description: '',
  source: '',
  saleDate: '',
  price: '',
  currency,
  lotUrl: '',
  notes: '',
  photoFileId: null,
});

export type DraftSource = Pick<SampleDetail, 'report' | 'files'> & {
  reportElements: readonly ElementLike[];
} & Partial<Pick<SampleDetail, 'purposeOfValuation' | 'dimensions' | 'materials' | 'estimatedAge'>>;

/**
 * A first report's identification starts from what the client submitted: their dimensions and
 * materials, and their estimated age as the period (the expert corrects what needs it).
 */
function submittedIdentification(sample: DraftSource): Partial<Record<IdentificationField, string>> {
  return {
    dimensions: sample.dimensions?.trim() ?? '',
    materials: sample.materials?.trim() ?? '',
    period: sample.estimatedAge?.trim() ?? '',
  };
}

/** The assignment as issued, or a new one: intended use from the client's purpose, conditions from the lab's template. */
function assignmentDraft(sample: DraftSource, defaults: AppraisalDefaults | undefined): AssignmentDraft {
  const a = sample.report?.assignment;
  const purpose = optionLabel(PURPOSES, sample.purposeOfValuation);
  return {
    intendedUse: a?.intendedUse ?? (purpose ? `${purpose}: ` : ''),
    intendedUsers: a?.intendedUsers ?? '',
    valueDefinition: a?.valueDefinition ?? '',
    propertyInterest: a?.propertyInterest ?? 'full-ownership',
    propertyInterestOther: a?.propertyInterestOther ?? '',
    inspection: a?.inspection ?? '',
    inspectionDate: a?.inspectionDate ?? '',
    scopeOfWork: a?.scopeOfWork ?? '',
    extraordinaryAssumptions: a?.extraordinaryAssumptions ?? '',
    hypotheticalConditions: a?.hypotheticalConditions ?? '',
    limitingConditions: a?.limitingConditions ?? defaults?.limitingConditionsTemplate ?? '',
  };
}

/** The draft of a sample's report: what its current revision states, or an empty one. */
export function draftFromSample(sample: DraftSource, defaults?: AppraisalDefaults): ReportDraft {
  const r: ReportContent | null = sample.report;
  const id = emptyIdentification();
  const submitted = r ? {} : submittedIdentification(sample);
  for (const { field } of IDENTIFICATION_FIELDS)
    id[field] = r?.identification?.[field] ?? submitted[field] ?? '';
  const v = r?.valuation;
  return {
    rows: toDraftRows(sample.reportElements),
    identification: id,
    verdict: r?.authenticity?.verdict ?? '',
    rationale: r?.authenticity?.rationale ?? '',
    grade: r?.condition?.grade ?? '',
    conditionNotes: r?.condition?.notes ?? '',
    valuation: {
      // Answers give amounts in major units (docs/product/valuation-report.md).
      low: v?.low === null || v?.low === undefined || v.low === v.high ? '' : String(v.low),
      high: v ? String(v.high) : '',
      // A new valuation starts in the lab's currency (its settings).
      currency: v?.currency ?? defaults?.currency ?? DEFAULT_CURRENCY,
      valueType: v?.valueType ?? '',
      effectiveDate: v?.effectiveDate ?? '',
      basis: v?.basis ?? '',
    },
    summary: r?.summary ?? '',
    // Only photos the editor can show (a report's choice is always among them).
    photoIds: (r?.photoIds ?? []).filter((pid) =>
      sample.files.some((f) => f.id === pid && f.fileCategory === 'photo'),
    ),
    assignment: assignmentDraft(sample, defaults),
    comparables: (r?.comparables ?? []).map((c) => ({
      key: draftKey(),
      description: c.description,
      source: c.source,
      saleDate: c.saleDate,
      price: String(c.price),
      currency: c.currency,
      lotUrl: c.lotUrl ?? '',
      notes: c.notes ?? '',
      photoFileId: c.photoFileId,
    })),
    revalueBy: r?.revalueBy ?? '',
    tax: {
      donee: r?.taxAppraisal?.donee ?? '',
      contributionDate: r?.taxAppraisal?.contributionDate ?? '',
      dateAcquired: r?.taxAppraisal?.dateAcquired ?? '',
      howAcquired: r?.taxAppraisal?.howAcquired ?? '',
      costBasis:
        r?.taxAppraisal?.costBasis === null || r?.taxAppraisal?.costBasis === undefined
          ? ''
          : String(r.taxAppraisal.costBasis),
      appraiserTaxId: r?.taxAppraisal?.appraiserTaxId ?? '',
    },
    taxMode: sample.purposeOfValuation === CHARITABLE_DONATION,
  };
}

const blank = (s: string) => s.trim() === '';
const orNull = (s: string) => (blank(s) ? null : s);

/** A valuation counts as started once any of its own fields is filled (the currency has a default). */
export function valuationStarted(v: ValuationDraft): boolean {
  return [v.low, v.high, v.valueType, v.effectiveDate, v.basis].some((s) => !blank(s));
}

/**
 * The issuing body. A part the expert left untouched is left out; a part begun but not finished is
 * sent as it is, so the schema names what is missing ('Please choose an authenticity verdict').
 */
export function draftToBody(d: ReportDraft) {
  const identification = Object.values(d.identification).some((s) => !blank(s))
    ? Object.fromEntries(IDENTIFICATION_FIELDS.map(({ field }) => [field, orNull(d.identification[field])]))
    : null;
  const v = d.valuation;
  return {
    elements: elementsToSend(d.rows),
    identification,
    authenticity:
      d.verdict || !blank(d.rationale) ? { verdict: d.verdict, rationale: orNull(d.rationale) } : null,
    condition:
      d.grade || !blank(d.conditionNotes) ? { grade: d.grade, notes: orNull(d.conditionNotes) } : null,
    valuation: valuationStarted(v)
      ? {
          low: orNull(v.low),
          high: v.high.trim(),
          currency: v.currency,
          valueType: v.valueType,
          effectiveDate: v.effectiveDate,
          basis: orNull(v.basis),
        }
      : null,
    summary: orNull(d.summary),
    photoIds: d.photoIds,
    // The appraisal's parts go with a value (an assay-only report has none).
    ...(valuationStarted(v) ? appraisalToBody(d) : { comparables: [] }),
  };
}

/** The assignment, comparables, re-valuation date and (in tax mode) tax details of a valued draft. */
function appraisalToBody(d: ReportDraft) {
  const a = d.assignment;
  const t = d.tax;
  return {
    assignment: {
      intendedUse: a.intendedUse,
      intendedUsers: a.intendedUsers,
      valueDefinition: a.valueDefinition,
      propertyInterest: a.propertyInterest,
      propertyInterestOther: a.propertyInterest === 'other' ? orNull(a.propertyInterestOther) : null,
      inspection: a.inspection,
      inspectionDate: a.inspectionDate,
      scopeOfWork: a.scopeOfWork,
      extraordinaryAssumptions: orNull(a.extraordinaryAssumptions),
      hypotheticalConditions: orNull(a.hypotheticalConditions),
      limitingConditions: a.limitingConditions,
    },
    comparables: d.comparables.map((c) => ({
      description: c.description,
      source: c.source,
      saleDate: c.saleDate,
      price: c.price.trim(),
      currency: c.currency,
      lotUrl: orNull(c.lotUrl),
      notes: orNull(c.notes),
      photoFileId: c.photoFileId,
    })),
    revalueBy: orNull(d.revalueBy),
    taxAppraisal: d.taxMode
      ? {
          donee: t.donee,
          contributionDate: t.contributionDate,
          dateAcquired: orNull(t.dateAcquired),
          howAcquired: t.howAcquired,
          costBasis: orNull(t.costBasis),
          appraiserTaxId: t.appraiserTaxId,
        }
      : null,
  };
}

/** Turns `[{path, message}]` (zod issues or a 400 answer) into the first message per path. */
export function errorsByPath(issues: readonly { path: readonly PropertyKey[] | string; message: string }[]) {
  const out: DraftErrors = {};
  for (const i of issues) {
    const path = typeof i.path === 'string' ? i.path : i.path.map(String).join('.');
    if (!(path in out)) out[path] = i.message;
  }
  return out;
}

/** The same checks as the server (`issueReportBody`): the body to send, or the errors by field. */
export function checkDraft(
  d: ReportDraft,
): { ok: true; body: IssueReportBody } | { ok: false; errors: DraftErrors } {
  const parsed = issueReportBody.safeParse(draftToBody(d));
  return parsed.success
    ? { ok: true, body: parsed.data }
    : { ok: false, errors: errorsByPath(parsed.error.issues) };
}

const elementKey = (e: ElementLike) =>
  JSON.stringify([
    e.element.trim().toLowerCase(),
    Number(e.percentage).toFixed(2),
    e.purity ?? '',
    e.quality ?? '',
    e.notes ?? '',
  ]);

/** What a draft states apart from its elements, in a form two drafts can be compared by. */
function contentKey(d: ReportDraft): string {
  const { elements: _elements, ...content } = draftToBody(d);
  return JSON.stringify(content);
}

/**
 * True when the draft states exactly what the issued report states: the same elements (in any
 * order) and the same identification, verdicts, value, texts and photos.
 */
export function sameAsIssued(d: ReportDraft, sample: DraftSource): boolean {
  const next = elementsToSend(d.rows).map(elementKey).sort();
  const before = sample.reportElements.map(elementKey).sort();
  const sameElements = next.length === before.length && next.every((k, i) => k === before[i]);
  return sameElements && contentKey(d) === contentKey(draftFromSample(sample));
}
