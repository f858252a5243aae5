import type { SampleSubmissionInput } from '../../../common/contracts/samples';
import { displaySampleId } from '../../../common/domain/samples';
import { ACCOUNT_DATA_PREFIX } from '../../lib/api';

// The submission draft lives in this browser only (docs/product/screens.md, Submit sample): form values, the names of the
// chosen photos and documents, and when it was saved. Files themselves cannot be kept.

/** Fields of the submission the form does not show: a new sample always starts 'submitted'. */
type NotOnForm = 'status' | 'clientName';

/**
 * The form's values, derived from the submission contract: every text field a string (blank for
 * none), every flag a boolean. A field added to the contract must be added to the form here.
 */
export type SampleFormValues = {
  [K in Exclude<keyof SampleSubmissionInput, NotOnForm>]-?: [
    Extract<NonNullable<SampleSubmissionInput[K]>, boolean>,
  ] extends [never]
    ? string
    : boolean;
};

export const EMPTY_SAMPLE_FORM: SampleFormValues = {
  submitterName: '',
  submitterEmail: '',
  submitterPhone: '',
  submitterCountry: '',
  isPersonalSubmission: true,
  representativeName: '',
  representativeEmail: '',
  relationshipToOwner: '',
  itemName: '',
  category: '',
  estimatedAge: '',
  description: '',
  dimensions: '',
  weight: '',
  materials: '',
  expertValuation: false,
  authenticityCheck: false,
  conditionAssessment: false,
  provenanceResearch: false,
  purposeOfValuation: '',
  urgencyLevel: 'standard',
  estimatedValueRange: '',
  specialInstructions: '',
  declaredValue: '',
  declaredCurrency: '',
};

export type SampleDraft = {
  values: SampleFormValues;
  photoNames: string[];
  documentNames: string[];
  savedAt: string;
};

/**
 * One draft per account, so a second person on the same browser never sees someone else's; kept under
 * the account-data prefix, so logging out forgets it.
 */
export const draftKey = (userId: number | undefined) =>
  `${ACCOUNT_DATA_PREFIX}sampleDraft:${userId ?? 'anonymous'}`;

export function saveDraft(key: string, draft: Omit<SampleDraft, 'savedAt'>): SampleDraft {
  const saved = { ...draft, savedAt: new Date().toISOString() };
  localStorage.setItem(key, JSON.stringify(saved));
  return saved;
}

export function loadDraft(key: string): SampleDraft | null {
  try {
    const raw = localStorage.getItem(key);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<SampleDraft>;
    if (!parsed || typeof parsed !== 'object' || !parsed.values) return null;
    const values = { ...EMPTY_SAMPLE_FORM };
    for (const k of Object.keys(EMPTY_SAMPLE_FORM) as (keyof SampleFormValues)[]) {
      const v = (parsed.values as Record<string, unknown>)[k];
      if (typeof v === typeof EMPTY_SAMPLE_FORM[k]) (values as Record<string, unknown>)[k] = v;
    }
    const names = (x: unknown) =>
      Array.isArray(x) ? x.filter((n): n is string => typeof n === 'string') : [];
    return {
      values,
      photoNames: names(parsed.photoNames),
      documentNames: names(parsed.documentNames),
      savedAt: typeof parsed.savedAt === 'string' ? parsed.savedAt : new Date().toISOString(),
    };
  } catch {
    return null;
  }
}

export function discardDraft(key: string) {
  localStorage.removeItem(key);
}

/** An empty form with the signed-in person's name, e-mail and phone filled in. */
export function freshSampleForm(
  user: { firstName: string | null; lastName: string | null; email: string; phone: string | null } | null,
): SampleFormValues {
  return {
    ...EMPTY_SAMPLE_FORM,
    submitterName: [user?.firstName, user?.lastName].filter(Boolean).join(' '),
    submitterEmail: user?.email ?? '',
    submitterPhone: user?.phone ?? '',
  };
}

/**
 * A new submission for valuing an item again (docs/product/appraisal-report.md, Re-valuation): the
 * earlier submission's item, purpose and contact, expert valuation asked for, and a note naming the
 * earlier report. Files are not copied: current photos are added again.
 */
export function revaluationForm(
  user: Parameters<typeof freshSampleForm>[0],
  old: {
    id: number;
    itemName: string;
    category: string;
    description: string;
    estimatedAge: string | null;
    dimensions: string | null;
    weight: string | null;
    materials: string | null;
    purposeOfValuation: string | null;
    estimatedValueRange: string | null;
    reportCode: string | null;
  },
): SampleFormValues {
  return {
    ...freshSampleForm(user),
    itemName: old.itemName,
    category: old.category,
    description: old.description,
    estimatedAge: old.estimatedAge ?? '',
    dimensions: old.dimensions ?? '',
    weight: old.weight ?? '',
    materials: old.materials ?? '',
    purposeOfValuation: old.purposeOfValuation ?? '',
    estimatedValueRange: old.estimatedValueRange ?? '',
    expertValuation: true,
    specialInstructions: `Re-valuation of the item in report ${old.reportCode ?? ''} (${displaySampleId(old.id)}).`,
  };
}
