import type { Option } from './options';

// The sample vocabulary: statuses, option sets, services, display ID (docs/product/statuses.md, limits.md).

export const SAMPLE_STATUSES = [
  'submitted',
  'in-progress',
  'analysis',
  'review',
  'completed',
  'on-hold',
] as const;
export type SampleStatus = (typeof SAMPLE_STATUSES)[number];

export const SAMPLE_STATUS_LABELS: Record<SampleStatus, string> = {
  submitted: 'Submitted',
  'in-progress': 'In Progress',
  analysis: 'Analysis',
  review: 'Review',
  completed: 'Completed',
  'on-hold': 'On Hold',
};

/** Unknown values display as submitted (docs/product/statuses.md). */
export function normalizeStatus(value: string | null | undefined): SampleStatus {
  return (SAMPLE_STATUSES as readonly string[]).includes(value ?? '') ? (value as SampleStatus) : 'submitted';
}

/** Customer dashboard "In Progress" card (docs/product/statuses.md). */
export const IN_PROGRESS_STATUSES: readonly SampleStatus[] = ['in-progress', 'analysis', 'review'];
/** Staff dashboard "In Progress" counter (docs/product/statuses.md). */
export const STAFF_IN_PROGRESS_STATUSES: readonly SampleStatus[] = ['in-progress', 'analysis'];
/** Admin "Active Samples": not completed or on-hold (docs/product/statuses.md). */
export const INACTIVE_STATUSES: readonly SampleStatus[] = ['completed', 'on-hold'];

export const URGENCY_LEVELS = ['standard', 'urgent'] as const;
export type UrgencyLevel = (typeof URGENCY_LEVELS)[number];

export const SERVICES = [
  { field: 'expertValuation', label: 'Expert Valuation', short: 'Valuation' },
  { field: 'authenticityCheck', label: 'Authenticity Check', short: 'Authenticity' },
  { field: 'conditionAssessment', label: 'Condition Assessment', short: 'Condition' },
  { field: 'provenanceResearch', label: 'Provenance Research', short: 'Provenance' },
] as const;
export type ServiceField = (typeof SERVICES)[number]['field'];

/** 'Valuation, Authenticity' or 'Basic Assessment' (docs/product/screens.md). */
export function servicesText(flags: Partial<Record<ServiceField, boolean | null>>): string {
  const names = SERVICES.filter((s) => flags[s.field]).map((s) => s.short);
  return names.length ? names.join(', ') : 'Basic Assessment';
}

/** VAL- plus the id padded to 4 digits (docs/product/limits.md). */
type Person = { firstName: string | null; lastName: string | null };

/** 'First Last' from whichever name parts exist; '' for none. */
export function personFullName(p: Person | null | undefined): string {
  return p ? [p.firstName, p.lastName].filter(Boolean).join(' ') : '';
}

/** The Client column (docs/product/screens.md): 'representativeName (for clientName)' when a representative submitted, else the owner's name. */
export function clientLabel(s: {
  representativeName: string | null;
  clientName: string | null;
  submitterName: string;
  user: Person | null;
}): string {
  if (s.representativeName) return `${s.representativeName} (for ${s.clientName ?? s.submitterName})`;
  return personFullName(s.user) || s.submitterName;
}

export function displaySampleId(id: number): string {
  return `VAL-${String(id).padStart(4, '0')}`;
}

// The option sets are read with optionLabel (common/domain/options.ts), also exported from here.
export { optionLabel } from './options';

export const COUNTRIES: readonly Option[] = [
  { value: 'united-states', label: 'United States' },
  { value: 'germany', label: 'Germany' },
  { value: 'united-kingdom', label: 'United Kingdom' },
  { value: 'canada', label: 'Canada' },
  { value: 'other', label: 'Other' },
];

export const RELATIONSHIPS: readonly Option[] = [
  { value: 'family-member', label: 'Family Member' },
  { value: 'legal-representative', label: 'Legal Representative' },
  { value: 'estate-manager', label: 'Estate Manager' },
  { value: 'business-partner', label: 'Business Partner' },
  { value: 'other', label: 'Other' },
];

export const CATEGORIES: readonly Option[] = [
  { value: 'jewelry-watches', label: 'Jewelry & Watches' },
  { value: 'artwork-paintings', label: 'Artwork & Paintings' },
  { value: 'furniture-decorative', label: 'Furniture & Decorative Arts' },
  { value: 'collectibles-memorabilia', label: 'Collectibles & Memorabilia' },
  { value: 'coins-currency', label: 'Coins & Currency' },
  { value: 'books-manuscripts', label: 'Books & Manuscripts' },
  { value: 'ceramics-pottery', label: 'Ceramics & Pottery' },
  { value: 'other', label: 'Other' },
];

export const PURPOSES: readonly Option[] = [
  { value: 'insurance', label: 'Insurance' },
  { value: 'estate-planning', label: 'Estate Planning' },
  { value: 'sale-auction', label: 'Sale / Auction' },
  { value: 'personal-knowledge', label: 'Personal Knowledge' },
  { value: 'legal-proceedings', label: 'Legal Proceedings' },
  { value: 'charitable-donation', label: 'Charitable Donation' },
  { value: 'other', label: 'Other' },
];

export const VALUE_RANGES: readonly Option[] = [
  { value: 'under-1000', label: 'Under $1,000' },
  { value: '1000-5000', label: '$1,000 - $5,000' },
  { value: '5000-25000', label: '$5,000 - $25,000' },
  { value: '25000-100000', label: '$25,000 - $100,000' },
  { value: 'over-100000', label: 'Over $100,000' },
  { value: 'unknown', label: 'Unknown' },
];

/**
 * Links in mails open the sample page with this marker, so a signed-out reader is asked neutrally to
 * log in (they came from the lab's own mail) instead of being told the page is not theirs.
 */
export const FROM_MAIL_PARAM = 'from';
export const FROM_MAIL_VALUE = 'mail';
/** The sample page as a mail links to it. */
export const samplePageFromMail = (id: number) => `/sample/${id}?${FROM_MAIL_PARAM}=${FROM_MAIL_VALUE}`;
