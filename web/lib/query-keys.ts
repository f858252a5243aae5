import type { QueryClient } from '@tanstack/react-query';

// Every cache key of the web app, one factory per resource. Features build their queries from these
// and invalidate through them, so one feature refreshes another's data without knowing its strings.
// Each call to the server is cached under exactly one key.

/** The signed-in account (GET /api/auth/user), per token. */
export const authKeys = {
  all: ['auth'] as const,
  user: (token: string | null) => [...authKeys.all, 'user', token] as const,
};

/** Profile pictures and signatures under /Uploads, fetched as blobs. */
export const personalImageKeys = {
  all: ['personal-image'] as const,
  image: (path: string | null) => [...personalImageKeys.all, path] as const,
};

/** Photo copies under /Uploads/photos, fetched as blobs (docs/product/photos.md). */
export const photoCopyKeys = {
  all: ['photo-copy'] as const,
  copy: (url: string) => [...photoCopyKeys.all, url] as const,
};

/** Samples as their owner sees them: GET /api/samples (per token) and GET /api/samples/{id}. */
export const sampleKeys = {
  all: ['samples'] as const,
  mine: (token: string | null) => [...sampleKeys.all, 'mine', token] as const,
  detail: (id: number) => [...sampleKeys.all, 'detail', id] as const,
};

/** The owner's share links and verification log of a sample's report (docs/product/valuation-report.md). */
export const disclosureKeys = {
  all: ['disclosure'] as const,
  links: (sampleId: number) => [...disclosureKeys.all, 'links', sampleId] as const,
  log: (sampleId: number, page: number) => [...disclosureKeys.all, 'log', sampleId, page] as const,
};

/** A sample's suggested quote: GET /api/staff/samples/{id}/quote/draft (quotes themselves come with the sample). */
export const quoteKeys = {
  all: ['quotes'] as const,
  draft: (sampleId: number) => [...quoteKeys.all, 'draft', sampleId] as const,
};

/** The staff work list: GET /api/staff/samples. */
export const staffKeys = {
  all: ['staff'] as const,
  samples: () => [...staffKeys.all, 'samples'] as const,
  /** One page of the work list for a search, filters and sort (its URL's query). */
  workList: (query: string) => [...staffKeys.samples(), 'view', query] as const,
  /** The dashboard's counters: GET /api/staff/samples/counts. */
  counts: () => [...staffKeys.samples(), 'counts'] as const,
  /** The second review: the caller's "Awaiting your review" queue and one sample's draft (docs/product/valuation-report.md). */
  reviews: () => [...staffKeys.all, 'reviews'] as const,
  review: (sampleId: number) => [...staffKeys.all, 'review', sampleId] as const,
  reviewHistory: (sampleId: number) => [...staffKeys.all, 'review-history', sampleId] as const,
  /** What a new appraisal starts from: GET /api/staff/report-defaults (docs/product/appraisal-report.md). */
  reportDefaults: () => [...staffKeys.all, 'report-defaults'] as const,
};

/** The admin dashboard's data; its Refresh button invalidates `adminKeys.all`. */
export const adminKeys = {
  all: ['admin'] as const,
  samples: () => [...adminKeys.all, 'samples'] as const,
  samplePage: (page: number) => [...adminKeys.samples(), page] as const,
  /** One page of the Samples tab's searched, filtered, sorted list (its URL's query). */
  sampleView: (query: string) => [...adminKeys.samples(), 'view', query] as const,
  analytics: () => [...adminKeys.all, 'analytics'] as const,
  users: () => [...adminKeys.all, 'users'] as const,
  staffUsers: () => [...adminKeys.users(), 'staff'] as const,
  labSettings: () => [...adminKeys.all, 'lab-settings'] as const,
  inquiries: () => [...adminKeys.all, 'inquiries'] as const,
  inquiryPage: (page: number) => [...adminKeys.inquiries(), page] as const,
  outbox: () => [...adminKeys.all, 'outbox'] as const,
  outboxPage: (page: number) => [...adminKeys.outbox(), page] as const,
  outboxMail: (id: number) => [...adminKeys.outbox(), 'mail', id] as const,
  audit: () => [...adminKeys.all, 'audit'] as const,
  auditPage: (query: string) => [...adminKeys.audit(), query] as const,
};

/** One-use links from mails (confirm the address, stop status mails), per token: a link is used once per page. */
export const mailLinkKeys = {
  all: ['mail-link'] as const,
  link: (purpose: 'verify-email' | 'unsubscribe', token: string) =>
    [...mailLinkKeys.all, purpose, token] as const,
};

/** Public report verification: GET /api/reports/verify/{code}, per normalised code. */
export const verificationKeys = {
  all: ['verification'] as const,
  /** A code, and the owner's share token when the page was opened through a share link. */
  code: (code: string, share = '') => [...verificationKeys.all, code, share] as const,
};

/**
 * A sample changed (status, assignment, report): every list and detail that shows samples is stale,
 * whichever screen made the change.
 */
export function invalidateSampleViews(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: sampleKeys.all }),
    queryClient.invalidateQueries({ queryKey: staffKeys.all }),
    queryClient.invalidateQueries({ queryKey: adminKeys.samples() }),
    queryClient.invalidateQueries({ queryKey: adminKeys.analytics() }),
  ]);
}

/** The caller's API keys and webhooks (docs/product/partners.md). */
export const partnerKeys = {
  all: ['partners'] as const,
  apiKeys: () => [...partnerKeys.all, 'api-keys'] as const,
  webhooks: () => [...partnerKeys.all, 'webhooks'] as const,
  deliveries: (webhookId: number) => [...partnerKeys.all, 'deliveries', webhookId] as const,
};

/** Custody of the item (docs/product/custody.md): a sample's history, the storage locations, the inventory. */
export const custodyKeys = {
  all: ['custody'] as const,
  history: (sampleId: number) => [...custodyKeys.all, 'history', sampleId] as const,
  locations: () => [...custodyKeys.all, 'locations'] as const,
  inventory: () => [...custodyKeys.all, 'inventory'] as const,
  experts: () => [...custodyKeys.all, 'experts'] as const,
};

/**
 * The caller's collections and one collection (docs/product/collections.md). Under `sampleKeys.all`:
 * whatever makes samples stale (a submission, a report, a status) makes collections stale too.
 */
export const collectionKeys = {
  all: [...sampleKeys.all, 'collections'] as const,
  mine: (token: string | null) => [...collectionKeys.all, 'mine', token] as const,
  detail: (id: number) => [...collectionKeys.all, 'detail', id] as const,
};
