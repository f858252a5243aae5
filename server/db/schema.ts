import { sql } from 'drizzle-orm';
import type { Role } from '../../common/domain/roles';
import type { ServiceField } from '../../common/domain/samples';
import type {
  PublicFaceElement,
  PublicReportFace,
  StoredReportContent,
} from '../../common/contracts/reports';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  char,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';

// Every entity the product keeps (docs/product/api.md), with status history timestamps, report
// revisions, verification log, login attempts. Text columns 255, status/role/urgency 50 (docs/product/limits.md).

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    email: varchar('email', { length: 255 }).notNull(),
    passwordHash: varchar('password_hash', { length: 255 }).notNull(),
    firstName: varchar('first_name', { length: 255 }),
    lastName: varchar('last_name', { length: 255 }),
    phone: varchar('phone', { length: 255 }),
    profileImageUrl: varchar('profile_image_url', { length: 255 }),
    role: varchar('role', { length: 50 }).$type<Role>().notNull().default('user'),
    staffId: varchar('staff_id', { length: 255 }),
    signature: varchar('signature', { length: 255 }),
    isActive: boolean('is_active').notNull().default(true),
    /** Bumped to end every session at once (logout-all, password change or reset, deactivation). */
    sessionVersion: integer('session_version').notNull().default(0),
    /**
     * Bumped, by triggers, whenever one of this user's samples or their files changes (migration 0036):
     * the own list's answer is reused while it stands (docs/decisions/0035-own-list-reuse.md).
     */
    samplesVersion: bigint('samples_version', { mode: 'number' }).notNull().default(0),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    /** "E-mail me when my sample's status changes" (docs/product/mail.md). */
    notifyStatusChanges: boolean('notify_status_changes').notNull().default(true),
    /**
     * Two-factor sign-in (docs/product/accounts-and-sessions.md): the TOTP secret once enabled, sealed
     * with TOTP_KEY (`v1.…`, modules/accounts/totp-vault.ts); never the base32 key in the clear.
     */
    totpSecret: varchar('totp_secret', { length: 128 }),
    /** A secret offered by setup and not yet confirmed with a code, sealed the same way. */
    totpPendingSecret: varchar('totp_pending_secret', { length: 128 }),
    totpEnabledAt: timestamp('totp_enabled_at', { withTimezone: true }),
    /** The 30-second step of the last accepted code: a code is accepted once. */
    totpLastStep: integer('totp_last_step'),
    /** A staff member's qualifications, rich text, printed in the reports they sign (docs/product/appraisal-report.md). */
    qualifications: text('qualifications'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_unique').on(t.email),
    uniqueIndex('users_staff_id_unique').on(t.staffId),
    index('users_role_idx').on(t.role),
  ],
);

export const samples = pgTable(
  'samples',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    submitterName: varchar('submitter_name', { length: 255 }).notNull(),
    submitterEmail: varchar('submitter_email', { length: 255 }).notNull(),
    submitterPhone: varchar('submitter_phone', { length: 255 }),
    submitterCountry: varchar('submitter_country', { length: 255 }),
    isPersonalSubmission: boolean('is_personal_submission').notNull().default(true),
    representativeEmail: varchar('representative_email', { length: 255 }),
    relationshipToOwner: varchar('relationship_to_owner', { length: 255 }),
    itemName: varchar('item_name', { length: 255 }).notNull(),
    category: varchar('category', { length: 255 }).notNull(),
    estimatedAge: varchar('estimated_age', { length: 255 }),
    description: text('description').notNull(),
    dimensions: varchar('dimensions', { length: 255 }),
    weight: varchar('weight', { length: 255 }),
    materials: varchar('materials', { length: 255 }),
    expertValuation: boolean('expert_valuation').notNull().default(false),
    authenticityCheck: boolean('authenticity_check').notNull().default(false),
    conditionAssessment: boolean('condition_assessment').notNull().default(false),
    provenanceResearch: boolean('provenance_research').notNull().default(false),
    purposeOfValuation: varchar('purpose_of_valuation', { length: 255 }),
    urgencyLevel: varchar('urgency_level', { length: 50 }).notNull().default('standard'),
    estimatedValueRange: varchar('estimated_value_range', { length: 255 }),
    specialInstructions: text('special_instructions'),
    isRepresentative: boolean('is_representative').notNull().default(false),
    representativeName: varchar('representative_name', { length: 255 }),
    representativeRelation: varchar('representative_relation', { length: 255 }),
    clientName: varchar('client_name', { length: 255 }),
    status: varchar('status', { length: 50 }).notNull().default('submitted'),
    submissionDate: timestamp('submission_date', { withTimezone: true }).notNull().defaultNow(),
    lastUpdated: timestamp('last_updated', { withTimezone: true }).notNull().defaultNow(),
    assignedStaffId: integer('assigned_staff_id').references(() => users.id),
    reportGenerated: boolean('report_generated').notNull().default(false),
    reportGeneratedAt: timestamp('report_generated_at', { withTimezone: true }),
    reportGeneratedBy: integer('report_generated_by').references(() => users.id),
    reportCode: varchar('report_code', { length: 8 }),
    reportRevokedAt: timestamp('report_revoked_at', { withTimezone: true }),
    reportRevokedReason: text('report_revoked_reason'),
    reportRevokedBy: integer('report_revoked_by').references(() => users.id),
    /** The latest quote's stored status, validity and acceptance, kept with the quote (docs/product/quotes.md). */
    quoteStatus: varchar('quote_status', { length: 20 }),
    quoteValidUntil: date('quote_valid_until', { mode: 'string' }),
    /** When the quote was accepted: the start of the turnaround. */
    quoteAcceptedAt: timestamp('quote_accepted_at', { withTimezone: true }),
    /** The issued report's re-valuation date (docs/product/appraisal-report.md); null without a value. */
    revalueBy: date('revalue_by', { mode: 'string' }),
    /** The re-valuation date the owner was last told about: the notice goes out once per date. */
    revaluationNoticeFor: date('revaluation_notice_for', { mode: 'string' }),

    /**
     * Custody (docs/product/custody.md): where the physical item is, apart from the workflow status.
     * The location's name is copied here (and renamed with it) so every sample answer carries it
     * without a join; `custody_since` null means since submission.
     */
    custodyState: varchar('custody_state', { length: 30 }).notNull().default('awaiting-arrival'),
    custodyLocationId: integer('custody_location_id').references((): AnyPgColumn => storageLocations.id),
    custodyLocationName: varchar('custody_location_name', { length: 255 }),
    custodySince: timestamp('custody_since', { withTimezone: true }),
    /** The owner's declared value for insurance in transit and custody, in minor units of `declared_currency`. */
    declaredValueMinor: bigint('declared_value_minor', { mode: 'number' }),
    declaredCurrency: varchar('declared_currency', { length: 3 }),
    /** The owner's collection this sample belongs to, if any (docs/product/collections.md): at most one. */
    collectionId: integer('collection_id').references((): AnyPgColumn => collections.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /**
     * Search and turnaround, kept by PostgreSQL from the columns above (migration 0013's functions;
     * docs/decisions/0025-search.md): the folded text a search matches, and the expected completion day.
     */
    searchText: text('search_text').generatedAlwaysAs(
      sql`vl_sample_search_text(item_name, submitter_name, submitter_email, client_name, representative_name, representative_email, report_code)`,
    ),
    expectedCompletion: date('expected_completion', { mode: 'string' }).generatedAlwaysAs(
      sql`vl_expected_completion(submission_date, quote_status, quote_accepted_at, urgency_level)`,
    ),
  },
  (t) => [
    index('samples_search_trgm_idx').using('gin', t.searchText.op('gin_trgm_ops')),
    index('samples_expected_idx').on(t.expectedCompletion, t.id),
    index('samples_last_updated_idx').on(t.lastUpdated, t.id),
    index('samples_submitted_id_idx').on(t.submissionDate, t.id),
    uniqueIndex('samples_report_code_unique').on(t.reportCode),
    index('samples_custody_state_idx').on(t.custodyState, t.id.desc()),
    index('samples_custody_location_idx')
      .on(t.custodyLocationId)
      .where(sql`${t.custodyLocationId} is not null`),
    index('samples_user_id_idx').on(t.userId, t.id.desc()),
    index('samples_assigned_staff_idx').on(t.assignedStaffId, t.id.desc()),
    index('samples_status_idx').on(t.status),
    index('samples_revalue_by_idx').on(t.revalueBy),
    index('samples_collection_idx')
      .on(t.collectionId, t.id)
      .where(sql`${t.collectionId} is not null`),
    // A search that is a whole e-mail address (docs/decisions/0025-search.md).
    index('samples_submitter_email_lower_idx').on(sql`lower(${t.submitterEmail})`),
    index('samples_representative_email_lower_idx').on(sql`lower(${t.representativeEmail})`),
  ],
);

export const sampleFiles = pgTable(
  'sample_files',
  {
    id: serial('id').primaryKey(),
    sampleId: integer('sample_id')
      .notNull()
      .references(() => samples.id, { onDelete: 'cascade' }),
    fileName: varchar('file_name', { length: 255 }).notNull(),
    originalName: varchar('original_name', { length: 255 }).notNull(),
    fileType: varchar('file_type', { length: 255 }).notNull(),
    fileSize: integer('file_size').notNull(),
    fileCategory: varchar('file_category', { length: 50 }).notNull(),
    uploadDate: timestamp('upload_date', { withTimezone: true }).notNull().defaultNow(),
    /**
     * Photos only: 'pending' until the background job made the thumbnail and display copies,
     * then 'ready' (or 'failed' for an undecodable file). Null for documents and for photos stored
     * before copies existed (`npm run photos:backfill`). docs/product/photos.md
     */
    copiesState: varchar('copies_state', { length: 20 }),
    /** Arrival photos: the intake (custody event) the lab took them at; null for the owner's files. */
    custodyEventId: integer('custody_event_id').references((): AnyPgColumn => custodyEvents.id),
  },
  (t) => [
    uniqueIndex('sample_files_file_name_unique').on(t.fileName),
    index('sample_files_sample_idx').on(t.sampleId),
    // Every list row's thumbnail is its sample's first photo: one step down this index, no sort
    // (the own list probes it per row: docs/benchmarks.md, "Load").
    index('sample_files_first_photo_idx')
      .on(t.sampleId, t.id)
      .where(sql`${t.fileCategory} = 'photo'`),
    // Start-up and the backfill look for photos without copies; only those rows are indexed.
    index('sample_files_copies_missing_idx')
      .on(t.id)
      .where(sql`${t.fileCategory} = 'photo' and (${t.copiesState} is null or ${t.copiesState} = 'pending')`),
  ],
);

export const reportElements = pgTable(
  'report_elements',
  {
    id: serial('id').primaryKey(),
    sampleId: integer('sample_id')
      .notNull()
      .references(() => samples.id, { onDelete: 'cascade' }),
    element: varchar('element', { length: 255 }).notNull(),
    percentage: numeric('percentage', { precision: 5, scale: 2 }).notNull(),
    purity: varchar('purity', { length: 255 }),
    quality: varchar('quality', { length: 50 }),
    notes: text('notes'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('report_elements_sample_element_unique').on(t.sampleId, sql`lower(${t.element})`)],
);

export const sampleStatusHistory = pgTable(
  'sample_status_history',
  {
    id: serial('id').primaryKey(),
    sampleId: integer('sample_id')
      .notNull()
      .references(() => samples.id, { onDelete: 'cascade' }),
    status: varchar('status', { length: 50 }).notNull(),
    comment: text('comment'),
    updatedBy: integer('updated_by').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [index('sample_status_history_sample_idx').on(t.sampleId, t.id)],
);

export const contactInquiries = pgTable(
  'contact_inquiries',
  {
    id: serial('id').primaryKey(),
    firstName: varchar('first_name', { length: 255 }).notNull(),
    lastName: varchar('last_name', { length: 255 }).notNull(),
    email: varchar('email', { length: 255 }).notNull(),
    phone: varchar('phone', { length: 255 }),
    subject: varchar('subject', { length: 255 }).notNull(),
    message: text('message').notNull(),
    status: varchar('status', { length: 50 }).notNull().default('new'),
    replyMessage: text('reply_message'),
    repliedAt: timestamp('replied_at', { withTimezone: true }),
    repliedBy: integer('replied_by').references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('contact_inquiries_status_idx').on(t.status)],
);

export const labSettings = pgTable('lab_settings', {
  id: serial('id').primaryKey(),
  labName: varchar('lab_name', { length: 255 }),
  address: varchar('address', { length: 255 }),
  phone: varchar('phone', { length: 255 }),
  email: varchar('email', { length: 255 }),
  website: varchar('website', { length: 255 }),
  logo: varchar('logo', { length: 255 }),
  certificationNumber: varchar('certification_number', { length: 255 }),
  /** The price list in minor units per service (docs/product/quotes.md); null until first saved. */
  pricesMinor: jsonb('prices_minor').$type<Record<ServiceField, number>>(),
  urgentSurchargePercent: integer('urgent_surcharge_percent').notNull().default(50),
  currency: varchar('currency', { length: 3 }).notNull().default('EUR'),
  /** Staff and admins must set up two-factor sign-in before using the lab's features. */
  require2faForStaff: boolean('require_2fa_for_staff').notNull().default(false),
  /** Issued reports wait for a second expert's approval before they are public (docs/product/valuation-report.md). */
  requireReview: boolean('require_review').notNull().default(false),
  /** How to pay an invoice (bank details, terms), printed on every invoice and in its mail. */
  paymentInstructions: text('payment_instructions'),
  /** An online payment page, printed beside the instructions. */
  paymentLink: varchar('payment_link', { length: 500 }),
  /** The appraisal report's texts and terms (docs/product/appraisal-report.md); null texts mean the product's defaults. */
  certificationTemplate: text('certification_template'),
  limitingConditionsTemplate: text('limiting_conditions_template'),
  revalueAfterMonths: integer('revalue_after_months').notNull().default(36),
  taxFilingWindowMonths: integer('tax_filing_window_months').notNull().default(22),

  /** The inventory flags items still in the lab this many days after their work was completed (docs/product/custody.md). */
  flagHeldDaysAfterCompletion: integer('flag_held_days_after_completion').notNull().default(14),
  updatedAt: updatedAt(),
});

/** One row of a revision's element table, as checked and cleaned when it was issued. */
export type RevisionElement = {
  element: string;
  percentage: number;
  purity: string | null;
  quality: string | null;
  notes: string | null;
};

/** Every issued PDF, kept byte for byte (docs/product/reports-and-verification.md). */
export const reportRevisions = pgTable(
  'report_revisions',
  {
    id: serial('id').primaryKey(),
    sampleId: integer('sample_id')
      .notNull()
      .references(() => samples.id, { onDelete: 'cascade' }),
    reportCode: varchar('report_code', { length: 8 }).notNull(),
    revision: integer('revision').notNull(),
    storageKey: varchar('storage_key', { length: 255 }).notNull(),
    sha256: char('sha256', { length: 64 }).notNull(),
    byteSize: integer('byte_size').notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
    issuedBy: integer('issued_by').references(() => users.id),
    /**
     * Who the revision's PDF names "Analyzed By" (reports/signatories.ts), kept so its credential names
     * the same person after the sample is reassigned; null on revisions issued before it was kept.
     */
    analyzedBy: integer('analyzed_by').references(() => users.id),
    /** Valuation, verdicts, identification, summary and photos (docs/product/valuation-report.md); null before they existed. */
    content: jsonb('content').$type<StoredReportContent>(),
    /** issued | awaiting-review | returned (the lab's second review, docs/product/valuation-report.md). */
    state: varchar('state', { length: 20 }).notNull().default('issued'),
    reviewedBy: integer('reviewed_by').references(() => users.id),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    reviewComment: text('review_comment'),
    /** The author asked for the sample to be completed with the report: done when it is approved. */
    completeOnApproval: boolean('complete_on_approval').notNull().default(false),
    /** The element table this revision states; the sample's elements take it when it becomes public. */
    elements: jsonb('elements').$type<RevisionElement[]>(),
  },
  (t) => [
    uniqueIndex('report_revisions_code_revision_unique').on(t.reportCode, t.revision),
    index('report_revisions_sha256_idx').on(t.sha256),
    index('report_revisions_sample_idx').on(t.sampleId),
  ],
);

/**
 * What public verification shows of each code's current issued revision, kept narrow so that the
 * lookup of any code among millions reads a small row instead of the revision's whole content
 * (decision 0033). Triggers keep it (migration 0033): every insert, update or delete of a revision
 * re-derives its code's row from the latest issued revision, or removes it; one on `report_elements`
 * keeps its elements, and one on `samples` the sample's shown columns.
 */
export const reportPublicFaces = pgTable('report_public_faces', {
  reportCode: varchar('report_code', { length: 8 }).primaryKey(),
  revision: integer('revision').notNull(),
  issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
  issuedBy: integer('issued_by'),
  reviewedBy: integer('reviewed_by'),
  reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
  /** The public subset of the revision's content (`PublicReportFace`); null when the revision has none. */
  face: jsonb('face').$type<PublicReportFace>(),
  /**
   * The sample's report elements as the answer lists them (in their order), kept by a trigger on
   * `report_elements` as well; null when there are none.
   */
  elements: jsonb('elements').$type<PublicFaceElement[]>(),
  // The sample's columns the answer shows, kept by a trigger on `samples`: a
  // verification then reads this row alone.
  sampleId: integer('sample_id'),
  itemName: varchar('item_name', { length: 255 }),
  category: varchar('category', { length: 255 }),
  status: varchar('status', { length: 50 }),
  submissionDate: timestamp('submission_date', { withTimezone: true }),
  lastUpdated: timestamp('last_updated', { withTimezone: true }),
  assignedStaffId: integer('assigned_staff_id'),
  reportGeneratedAt: timestamp('report_generated_at', { withTimezone: true }),
  reportRevokedAt: timestamp('report_revoked_at', { withTimezone: true }),
  reportRevokedReason: text('report_revoked_reason'),
});

/**
 * Every decision of the second review (docs/product/valuation-report.md): who approved or sent back
 * which revision, when, and the comment. Kept when the author re-issues over a returned revision.
 */
export const reportReviewDecisions = pgTable(
  'report_review_decisions',
  {
    id: serial('id').primaryKey(),
    sampleId: integer('sample_id')
      .notNull()
      .references(() => samples.id, { onDelete: 'cascade' }),
    reportCode: varchar('report_code', { length: 8 }).notNull(),
    revision: integer('revision').notNull(),
    /** approved | returned */
    decision: varchar('decision', { length: 20 }).notNull(),
    reviewerId: integer('reviewer_id').references(() => users.id),
    /** The revision's author, as it was when the decision was made. */
    authorId: integer('author_id').references(() => users.id),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    decidedAt: timestamp('decided_at', { withTimezone: true }).notNull().defaultNow(),
    comment: text('comment'),
  },
  (t) => [index('report_review_decisions_sample_idx').on(t.sampleId, t.decidedAt)],
);

/** Public verifications: time, code, result, and only a coarse network prefix (docs/product/reports-and-verification.md). */
export const verificationLog = pgTable(
  'verification_log',
  {
    id: bigserial('id', { mode: 'number' }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    code: varchar('code', { length: 64 }).notNull(),
    result: varchar('result', { length: 50 }).notNull(),
    network: varchar('network', { length: 64 }),
    /** The owner's share link the lookup came through, if any (docs/product/valuation-report.md). */
    shareLinkId: integer('share_link_id'),
  },
  // One index, the key: every read is one code's entries, newest id first (a backward scan). Every
  // public verification writes a row, and a second index (id alone) was pure write cost
  // (docs/benchmarks.md, "Report verification").
  (t) => [primaryKey({ name: 'verification_log_pkey', columns: [t.code, t.id] })],
);

/**
 * Links an owner gives out so that a verification also shows the value (docs/product/valuation-report.md).
 * Only the token's SHA-256 is kept (and its last characters, so the owner can tell links apart): the
 * link is shown once, when it is made, and a copy of this table opens no valuation
 * (docs/decisions/0020-account-hardening-two.md).
 */
export const reportShareLinks = pgTable(
  'report_share_links',
  {
    id: serial('id').primaryKey(),
    sampleId: integer('sample_id')
      .notNull()
      .references(() => samples.id, { onDelete: 'cascade' }),
    /** SHA-256 (hex) of the token in the link. */
    tokenHash: char('token_hash', { length: 64 }).notNull(),
    /** The token's last 4 characters, shown in the owner's list ("…x7Qa"). */
    tokenHint: varchar('token_hint', { length: 8 }).notNull(),
    /** The owner's own words for whom the link is for ("Insurer"), optional. */
    label: varchar('label', { length: 255 }),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('report_share_links_token_hash_unique').on(t.tokenHash),
    index('report_share_links_sample_idx').on(t.sampleId, t.id.desc()),
  ],
);

/** Failed logins, in the database so throttling holds across instances (docs/product/limits.md). */
export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    key: varchar('key', { length: 320 }).notNull(),
    attemptedAt: timestamp('attempted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('login_attempts_key_idx').on(t.key, t.attemptedAt)],
);

/**
 * How many samples exist per block of 1,000 ids, kept by a trigger on samples (migration
 * 0001_sample_id_buckets). The admin list reads its exact total and seeks to any page from these
 * ~n/1000 rows instead of counting or skipping a million rows (docs/benchmarks.md).
 */
export const sampleIdBuckets = pgTable('sample_id_buckets', {
  bucket: integer('bucket').primaryKey(),
  rows: integer('rows').notNull(),
});

/**
 * Durable background jobs (server/jobs): enqueued inside the caller's transaction, claimed with
 * FOR UPDATE SKIP LOCKED under a lease (locked_until) so that one instance runs each job at a time
 * and a crashed instance's job is taken over (docs/decisions/0009-mail-and-background-jobs.md).
 */
export const jobs = pgTable(
  'jobs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    queue: varchar('queue', { length: 100 }).notNull(),
    payload: jsonb('payload').notNull(),
    /** pending | running | done | failed */
    state: varchar('state', { length: 20 }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull(),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lockedBy: varchar('locked_by', { length: 100 }),
    lastError: text('last_error'),
    dedupeKey: varchar('dedupe_key', { length: 255 }),
    /** Jobs of a queue registered as fair take turns by this key (the customer a photo belongs to). */
    fairKey: varchar('fair_key', { length: 255 }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('jobs_claim_idx').on(t.queue, t.state, t.runAt),
    uniqueIndex('jobs_dedupe_unique').on(t.queue, t.dedupeKey),
    // When each key was last served (the fair claim's order): finished and running jobs only, so
    // the latest is one step down, however many of the key's jobs are still waiting (decision 0032).
    index('jobs_served_fair_idx')
      .on(t.queue, t.fairKey, t.updatedAt)
      .where(sql`${t.state} <> 'pending'`),
    // A fair queue's claim walks its waiting keys and takes each key's oldest job from here
    // (server/jobs/jobs.ts, fairCandidates): its cost follows the keys waiting, not the backlog.
    index('jobs_pending_fair_idx')
      .on(t.queue, t.fairKey, t.runAt, t.id)
      .where(sql`${t.state} = 'pending'`),
  ],
);

/** Every mail the lab sends, rendered, kept whether or not SMTP is configured (docs/product/mail.md). */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: varchar('kind', { length: 50 }).notNull(),
    toAddress: varchar('to_address', { length: 255 }).notNull(),
    subject: varchar('subject', { length: 500 }).notNull(),
    html: text('html').notNull(),
    text: text('text').notNull(),
    /** Extra headers (List-Unsubscribe …). */
    headers: jsonb('headers').$type<Record<string, string>>().notNull().default({}),
    /** The lab logo's storage key, attached inline (cid:lab-logo) when the mail is sent. */
    logoKey: varchar('logo_key', { length: 255 }),
    /**
     * The live link tokens of html/text/headers, which hold `token=REDACTED-n` instead: sealed with a
     * key outside the database (server/mail/live-tokens.ts), null once the mail is sent.
     */
    sealedTokens: text('sealed_tokens'),
    /** pending | sent | failed */
    state: varchar('state', { length: 20 }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [index('mail_outbox_created_idx').on(t.id.desc()), index('mail_outbox_state_idx').on(t.state)],
);

/** Single-use e-mail tokens (password reset, address confirmation): only their SHA-256 is kept. */
export const accountTokens = pgTable(
  'account_tokens',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** reset | verify */
    purpose: varchar('purpose', { length: 20 }).notNull(),
    tokenHash: char('token_hash', { length: 64 }).notNull(),
    /** The address a confirmation token confirms (a later e-mail change makes it worthless). */
    email: varchar('email', { length: 255 }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('account_tokens_hash_unique').on(t.tokenHash),
    index('account_tokens_user_idx').on(t.userId, t.purpose, t.createdAt),
  ],
);

/** Tokens ended one by one (logout) until they would have expired anyway. */
export const revokedTokens = pgTable('revoked_tokens', {
  jti: varchar('jti', { length: 64 }).primaryKey(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** One quoted line, kept in minor units. */
export type QuoteLineRow = { description: string; amountMinor: number };

/**
 * Quotes for a sample (docs/product/quotes.md). A sample has at most one quote that is sent or
 * accepted at a time; older ones stay as declined or withdrawn. "Expired" is not stored: a sent
 * quote whose valid_until has passed counts as expired. The invoice of an accepted quote is the
 * quote itself plus its payment columns.
 */
export const quotes = pgTable(
  'quotes',
  {
    id: serial('id').primaryKey(),
    sampleId: integer('sample_id')
      .notNull()
      .references(() => samples.id, { onDelete: 'cascade' }),
    /** sent | accepted | declined | withdrawn */
    status: varchar('status', { length: 20 }).notNull().default('sent'),
    lines: jsonb('lines').$type<QuoteLineRow[]>().notNull(),
    totalMinor: bigint('total_minor', { mode: 'number' }).notNull(),
    currency: varchar('currency', { length: 3 }).notNull(),
    validUntil: date('valid_until', { mode: 'string' }).notNull(),
    note: text('note'),
    sentBy: integer('sent_by').references(() => users.id),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    declineReason: text('decline_reason'),
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    paidReference: varchar('paid_reference', { length: 255 }),
    paidBy: integer('paid_by').references(() => users.id),
  },
  (t) => [
    index('quotes_sample_idx').on(t.sampleId, t.id.desc()),
    uniqueIndex('quotes_one_open_per_sample')
      .on(t.sampleId)
      .where(sql`${t.status} in ('sent', 'accepted')`),
  ],
);

/** One-time recovery codes of two-factor sign-in: only their SHA-256 is kept; each works once. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: varchar('code_hash', { length: 64 }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('recovery_codes_user_idx').on(t.userId)],
);

/** The short-lived second step of a sign-in with two factors: the token's SHA-256, tries left. */
export const mfaChallenges = pgTable(
  'mfa_challenges',
  {
    id: serial('id').primaryKey(),
    tokenHash: varchar('token_hash', { length: 64 }).notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    failures: integer('failures').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('mfa_challenges_token_unique').on(t.tokenHash),
    index('mfa_challenges_user_idx').on(t.userId),
  ],
);

/**
 * The audit trail (server/audit, docs/product/audit-trail.md): one append-only, hash-chained event
 * per change that matters. `id` is the event's place in the chain, handed out by audit_chain_head
 * under its row lock, so ids have no gaps and follow the chain. Triggers (the hand-written
 * migration *_audit_append_only.sql) refuse UPDATE, DELETE and TRUNCATE. No foreign keys: an event
 * outlives whatever it names, and a cascade could never touch it anyway.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    /** The account that acted; null for the system (and for a failed sign-in, who is not known). */
    actorId: integer('actor_id'),
    /** Who acted, in words, as it was then: the account's e-mail, the address typed, or 'system'. */
    actorLabel: varchar('actor_label', { length: 255 }).notNull(),
    action: varchar('action', { length: 64 }).notNull(),
    subjectType: varchar('subject_type', { length: 40 }).notNull(),
    subjectId: varchar('subject_id', { length: 64 }),
    before: jsonb('before'),
    after: jsonb('after'),
    /** The client's network prefix (/24, /48), never the full address. */
    network: varchar('network', { length: 64 }),
    prevHash: char('prev_hash', { length: 64 }).notNull(),
    /** SHA-256 (hex) of prev_hash followed by the event's canonical JSON (server/audit/audit.ts). */
    hash: char('hash', { length: 64 }).notNull(),
  },
  (t) => [
    index('audit_events_subject_idx').on(t.subjectType, t.subjectId, t.id),
    index('audit_events_action_idx').on(t.action, t.id),
    index('audit_events_actor_idx').on(t.actorId, t.id),
    index('audit_events_at_idx').on(t.at),
  ],
);

/**
 * The chain's head: one row (id 1) with the last event's place and hash. Every writer locks it
 * (UPDATE … RETURNING) inside the transaction of its change, so events from any number of instances
 * form one chain; a rolled-back change gives its place back.
 */
export const auditChainHead = pgTable('audit_chain_head', {
  id: integer('id').primaryKey(),
  seq: bigint('seq', { mode: 'number' }).notNull(),
  lastHash: char('last_hash', { length: 64 }).notNull(),
  /**
   * The hash before the last event, and the last event's time as hashed (ISO text): set by the same
   * UPDATE that moves the head, so the event row is written from what that one statement returns.
   */
  prevHash: char('prev_hash', { length: 64 }),
  lastAt: varchar('last_at', { length: 24 }),
});

/**
 * API keys (docs/product/partners.md): a key acts as its owner, with the owner's current role, for
 * the calls its scopes allow. Only the SHA-256 of the key is kept; the key is shown once.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 100 }).notNull(),
    /** The key's first characters, to tell keys apart in the list. */
    prefix: varchar('prefix', { length: 16 }).notNull(),
    /** Hex SHA-256 of the whole key. */
    keyHash: char('key_hash', { length: 64 }).notNull(),
    scopes: jsonb('scopes').$type<string[]>().notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('api_keys_key_hash_unique').on(t.keyHash), index('api_keys_user_idx').on(t.userId)],
);

/**
 * Webhook endpoints (docs/product/partners.md): the owner's (a customer's: events of their samples;
 * an admin's: the lab's). `secret` signs every delivery (Standard Webhooks), so it is kept.
 */
export const webhooks = pgTable(
  'webhooks',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    url: varchar('url', { length: 2048 }).notNull(),
    events: jsonb('events').$type<string[]>().notNull(),
    secret: varchar('secret', { length: 100 }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('webhooks_user_idx').on(t.userId)],
);

/** One event for one endpoint: its `webhook-id` stays the same through every retry and redelivery. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: serial('id').primaryKey(),
    webhookId: integer('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    messageId: varchar('message_id', { length: 64 }).notNull(),
    event: varchar('event', { length: 64 }).notNull(),
    /** The signed body, exactly as sent. */
    body: text('body').notNull(),
    state: varchar('state', { length: 16 })
      .$type<'pending' | 'delivered' | 'failed'>()
      .notNull()
      .default('pending'),
    createdAt: createdAt(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_message_unique').on(t.webhookId, t.messageId),
    index('webhook_deliveries_webhook_idx').on(t.webhookId, t.id.desc()),
  ],
);

/** Each attempt of a delivery: what the endpoint answered, or why it did not. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: serial('id').primaryKey(),
    deliveryId: integer('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    statusCode: integer('status_code'),
    response: varchar('response', { length: 600 }).notNull(),
    durationMs: integer('duration_ms').notNull(),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId, t.id)],
);

/**
 * A customer's submission in progress: it holds one of their submissions per hour and the bytes
 * its upload may store, taken atomically before the upload is read, so parallel submissions can
 * never pass the limits together (docs/product/security.md). Removed by the statement that stores
 * the sample, or when the upload fails; one left by a crash stops counting at `expires_at`.
 */
export const submissionReservations = pgTable(
  'submission_reservations',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('submission_reservations_user_idx').on(t.userId, t.expiresAt)],
);

/** Where the lab keeps items: vault, safe, shelf, photo studio (docs/product/custody.md). Retired, never deleted. */
export const storageLocations = pgTable(
  'storage_locations',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 100 }).notNull(),
    description: varchar('description', { length: 500 }),
    /** Set when retired: the location keeps its history and takes no new items. */
    retiredAt: timestamp('retired_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('storage_locations_name_unique').on(sql`lower(${t.name})`)],
);

/** The item's chain of custody: one row per arrival, move, hand-over, return or collection. */
export const custodyEvents = pgTable(
  'custody_events',
  {
    id: serial('id').primaryKey(),
    sampleId: integer('sample_id')
      .notNull()
      .references(() => samples.id, { onDelete: 'cascade' }),
    /** received | moved | to-expert | to-storage | returned | collected */
    event: varchar('event', { length: 30 }).notNull(),
    /** The state the item was in after this event. */
    state: varchar('state', { length: 30 }).notNull(),
    locationId: integer('location_id').references(() => storageLocations.id),
    /** When it happened (the intake's received date; else when it was recorded). */
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    byUserId: integer('by_user_id').references(() => users.id),
    note: text('note'),
    /** What the event's form recorded: count, packaging, condition; carrier, tracking, insured value; who collected. */
    details: jsonb('details').$type<CustodyEventDetails>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index('custody_events_sample_idx').on(t.sampleId, t.id)],
);

export type CustodyEventDetails = {
  itemCount?: number;
  packaging?: string;
  conditionOnArrival?: string;
  carrier?: string;
  trackingNumber?: string;
  insuredValueMinor?: number;
  insuredCurrency?: string;
  collectedBy?: string;
  idChecked?: boolean;
  /** A hand-over: to whom, and their name as it was then. */
  expertId?: number;
  expertName?: string;
};

/** A customer's named group of samples: an estate, an insured household, a dealer's consignment (docs/product/collections.md). */
export const collections = pgTable(
  'collections',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    name: varchar('name', { length: 255 }).notNull(),
    /** One of the valuation purposes (common/domain/samples.ts PURPOSES). */
    purpose: varchar('purpose', { length: 50 }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('collections_user_idx').on(t.userId, t.id.desc())],
);

/** One item as a schedule lists it (docs/product/schedules.md): what public verification shows, never a value. */
export type ScheduleItemRecord = {
  sampleId: number;
  displayId: string;
  itemName: string;
  category: string;
  reportCode: string;
  reportRevision: number;
};

/** A collection's issued schedule: its own code, its signed PDF and the list of items it names. */
export const schedules = pgTable(
  'schedules',
  {
    id: serial('id').primaryKey(),
    code: varchar('code', { length: 8 }).notNull(),
    collectionId: integer('collection_id')
      .notNull()
      .references(() => collections.id),
    issuedBy: integer('issued_by')
      .notNull()
      .references(() => users.id),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
    storageKey: varchar('storage_key', { length: 255 }).notNull(),
    pdfSha256: varchar('pdf_sha256', { length: 64 }).notNull(),
    items: jsonb('items').$type<ScheduleItemRecord[]>().notNull(),
  },
  (t) => [
    uniqueIndex('schedules_code_unique').on(t.code),
    index('schedules_collection_idx').on(t.collectionId, t.id.desc()),
  ],
);
