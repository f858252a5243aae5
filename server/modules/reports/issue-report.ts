import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { recordAudit } from '../../audit/audit';
import {
  elementSetProblem,
  type IssueReportBody,
  type CertificationContent,
  type IssueReportResponse,
  type ReportContent,
  type ReportElementInput,
  REPORT_COMPLETED_NOTE,
  VALUATION_MESSAGES,
} from '../../../common/contracts/reports';
import { REVIEW_MESSAGES } from '../../../common/contracts/review';
import { APPRAISAL_MESSAGES } from '../../../common/contracts/appraisal';
import {
  addDays,
  addMonths,
  CHARITABLE_DONATION,
  DEFAULT_CERTIFICATION,
  DEFAULT_REVALUE_AFTER_MONTHS,
  DEFAULT_TAX_FILING_WINDOW_MONTHS,
  TAX_DAYS_BEFORE_CONTRIBUTION,
} from '../../../common/domain/appraisal';
import type { DbOrTx } from '../../db/client';
import { parseAmount } from '../../../common/domain/money';
import { DEFAULT_LAB_NAME, LAB_FIXED_ADDRESS, LAB_FIXED_PHONE } from '../../../common/domain/reports';
import {
  CATEGORIES,
  displaySampleId,
  normalizeStatus,
  optionLabel,
  SERVICES,
} from '../../../common/domain/samples';
import { emitWebhookEvent } from '../webhooks/webhook-events';
import type { AppDeps } from '../../app-deps';
import type { AuthUser } from '../../plugins/auth';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../plugins/errors';
import { canIssueReport, canIssueReports } from '../../policies/samples';
import { sanitizeNotes } from './notes-sanitizer';
import { newReportCode } from './report-code';
import { mailReportIssued } from '../../mail/notifications';
import { renderReportPdf } from './report-pdf';
import { scheduleRevaluationNotice } from './revaluation.job';
import { displayCopyForDocument } from '../photos/make-photo-copies';
import { changeSampleStatus } from '../sample-status/change-status';
import {
  type ElementValues,
  findSample,
  findSamplePhotos,
  findUserNameAndSignature,
  deleteRevision,
  insertRevision,
  latestRevisionOfSample,
  markSampleIssued,
  replaceReportElements,
  type RevisionRow,
  type SampleRow,
} from './reports.queries';
import { readLabSettings } from '../../db/lab-settings';
import { personName, type Signatories, signatoriesOfIssue } from './signatories';
import { isoDate } from '../../time';

/** What issuing needs of the app: also built by the demo seed and the benchmark. */
export type IssueDeps = Pick<AppDeps, 'config' | 'db' | 'storage' | 'keys' | 'mailer'> &
  Partial<Pick<AppDeps, 'photoCopier'>>;

export const ACCESS_DENIED_MESSAGE = 'You do not have permission to generate this report';
export const REVOKED_REISSUE_MESSAGE = 'This report has been revoked and cannot be reissued';
const MAX_CODE_ATTEMPTS = 5;

/** Advisory-lock namespace for issuing (the second key is the sample id). */
const REPORT_ISSUE_LOCK = 4_242_002;

export const reportStorageKey = (code: string, revision: number) => `reports/${code}-r${revision}.pdf`;

/** Cross-row rules of docs/product/limits.md and the sanitised values that will be stored. */
export function checkElements(input: ReportElementInput[]): ElementValues[] {
  const problem = elementSetProblem(input);
  if (problem?.kind === 'duplicate') throw conflict(problem.message);
  if (problem)
    throw badRequest(problem.message, [
      { path: `elements.${problem.index}.percentage`, message: problem.message },
    ]);
  return input.map((e) => ({
    element: e.element.trim(),
    percentage: Math.round(e.percentage * 100) / 100,
    purity: e.purity?.trim() || null,
    quality: e.quality ?? null,
    notes: sanitizeNotes(e.notes),
  }));
}

/** An amount the contract already accepted, in minor units. */
function minorUnits(value: number | string, currency: string): number {
  const parsed = parseAmount(value, currency);
  if (!parsed.ok) throw badRequest(parsed.message);
  return parsed.minor;
}

/** A rich text the contract requires: cleaned, and refused if nothing is left once cleaned. */
function requiredNotes(html: string, path: string, message: string): string {
  const clean = sanitizeNotes(html);
  if (!clean) throw badRequest(message, [{ path, message }]);
  return clean;
}

/** The assignment, comparables, re-valuation date and tax appraisal as stored (docs/product/appraisal-report.md). */
function appraisalContentOf(
  body: Omit<IssueReportBody, 'elements'>,
  terms: { revalueAfterMonths: number; taxMode: boolean },
): Pick<ReportContent, 'assignment' | 'comparables' | 'revalueBy' | 'taxAppraisal'> {
  const a = body.assignment;
  const M = APPRAISAL_MESSAGES;
  const v = body.valuation;
  const t = body.taxAppraisal;
  return {
    assignment: a
      ? {
          intendedUse: a.intendedUse,
          intendedUsers: a.intendedUsers,
          valueDefinition: requiredNotes(a.valueDefinition, 'assignment.valueDefinition', M.valueDefinition),
          propertyInterest: a.propertyInterest,
          propertyInterestOther: a.propertyInterest === 'other' ? (a.propertyInterestOther ?? null) : null,
          inspection: a.inspection,
          inspectionDate: a.inspectionDate,
          scopeOfWork: requiredNotes(a.scopeOfWork, 'assignment.scopeOfWork', M.scopeOfWork),
          extraordinaryAssumptions: sanitizeNotes(a.extraordinaryAssumptions),
          hypotheticalConditions: sanitizeNotes(a.hypotheticalConditions),
          limitingConditions: requiredNotes(
            a.limitingConditions,
            'assignment.limitingConditions',
            M.limitingConditions,
          ),
        }
      : null,
    comparables: body.comparables.map((c) => ({
      description: c.description,
      source: c.source,
      saleDate: c.saleDate,
      price: minorUnits(c.price, c.currency),
      currency: c.currency,
      lotUrl: c.lotUrl ?? null,
      notes: c.notes ?? null,
      photoFileId: c.photoFileId ?? null,
    })),
    revalueBy: v ? (body.revalueBy ?? addMonths(v.effectiveDate, terms.revalueAfterMonths)) : null,
    taxAppraisal:
      terms.taxMode && v && t
        ? {
            donee: t.donee,
            contributionDate: t.contributionDate,
            dateAcquired: t.dateAcquired ?? null,
            howAcquired: t.howAcquired,
            costBasis:
              t.costBasis === null || t.costBasis === undefined ? null : minorUnits(t.costBasis, v.currency),
            appraiserTaxId: t.appraiserTaxId,
          }
        : null,
  };
}

/**
 * Tax mode (the sample's purpose is a charitable donation): a valuation needs the tax appraisal, and
 * its effective date must fall in the window the rules allow around the contribution date.
 */
function checkTaxMode(body: Omit<IssueReportBody, 'elements'>, windowMonths: number) {
  const v = body.valuation;
  if (!v) return;
  const t = body.taxAppraisal;
  const M = APPRAISAL_MESSAGES;
  if (!t) throw badRequest(M.taxRequired, [{ path: 'taxAppraisal', message: M.taxRequired }]);
  if (t.costBasis !== null && t.costBasis !== undefined) {
    const parsed = parseAmount(t.costBasis, v.currency);
    if (!parsed.ok)
      throw badRequest(parsed.message, [{ path: 'taxAppraisal.costBasis', message: parsed.message }]);
  }
  if (v.effectiveDate < addDays(t.contributionDate, -TAX_DAYS_BEFORE_CONTRIBUTION)) {
    const message = M.tooEarly(TAX_DAYS_BEFORE_CONTRIBUTION);
    throw badRequest(message, [{ path: 'valuation.effectiveDate', message }]);
  }
  if (v.effectiveDate > addMonths(t.contributionDate, windowMonths)) {
    const message = M.tooLate(windowMonths);
    throw badRequest(message, [{ path: 'valuation.effectiveDate', message }]);
  }
}

/** The report's own statements, cleaned for storage: rich texts sanitised, blank fields dropped. */
export function reportContentOf(
  body: Omit<IssueReportBody, 'elements'>,
  terms: { revalueAfterMonths: number; taxMode: boolean } = {
    revalueAfterMonths: DEFAULT_REVALUE_AFTER_MONTHS,
    taxMode: false,
  },
): ReportContent {
  const v = body.valuation;
  const id = body.identification;
  const identification = id
    ? {
        maker: id.maker ?? null,
        period: id.period ?? null,
        origin: id.origin ?? null,
        marks: id.marks ?? null,
        dimensions: id.dimensions ?? null,
        materials: id.materials ?? null,
      }
    : null;
  return {
    valuation: v
      ? {
          low: v.low === null || v.low === undefined ? null : minorUnits(v.low, v.currency),
          high: minorUnits(v.high, v.currency),
          currency: v.currency,
          valueType: v.valueType,
          effectiveDate: v.effectiveDate,
          basis: sanitizeNotes(v.basis),
        }
      : null,
    authenticity: body.authenticity
      ? { verdict: body.authenticity.verdict, rationale: sanitizeNotes(body.authenticity.rationale) }
      : null,
    condition: body.condition
      ? { grade: body.condition.grade, notes: sanitizeNotes(body.condition.notes) }
      : null,
    identification: identification && Object.values(identification).some((x) => x) ? identification : null,
    summary: sanitizeNotes(body.summary),
    photoIds: body.photoIds,
    ...appraisalContentOf(body, terms),
    // Known only once the signatories are (certificationOf, when the revision becomes public).
    certification: null,
  };
}

/**
 * The chosen photos as the PDF shows them: display copies (made now if still missing), captioned in
 * order. Every id must be one of this sample's photos (400 otherwise: never another owner's picture).
 */
async function reportPhotos(deps: IssueDeps, sampleId: number, photoIds: readonly number[]) {
  if (!photoIds.length) return [];
  const own = new Map((await findSamplePhotos(deps.db, sampleId)).map((p) => [p.id, p]));
  const index = photoIds.findIndex((id) => !own.has(id));
  if (index >= 0)
    throw badRequest(VALUATION_MESSAGES.foreignPhoto, [
      { path: `photoIds.${index}`, message: VALUATION_MESSAGES.foreignPhoto },
    ]);
  const copies = await Promise.all(
    photoIds.map((id) =>
      displayCopyForDocument(
        { db: deps.db, storage: deps.storage, copier: deps.photoCopier },
        id,
        own.get(id),
      ).catch(() => null),
    ),
  );
  return photoIds.flatMap((id, i) => {
    const image = copies[i];
    return image ? [{ image, caption: `Photo ${i + 1}: ${own.get(id)?.originalName ?? ''}` }] : [];
  });
}

/** Reads an image from storage for the PDF; a missing file leaves the image out. */
/** An uploaded image (logo, signature) from storage, or null when it is missing. */
export async function readImage(
  deps: Pick<IssueDeps, 'storage'>,
  key: string | null | undefined,
): Promise<Buffer | null> {
  if (!key) return null;
  const storageKey = key.replace(/^\/?Uploads\//i, '');
  try {
    return await deps.storage.read(storageKey);
  } catch {
    return null;
  }
}

/** Everything the PDF shows apart from the code, revision and dates. */
export async function pdfInputFor(
  deps: IssueDeps,
  sample: SampleRow,
  elements: ElementValues[],
  content: ReportContent,
  people: Signatories,
  labRow?: LabSettingsRow,
) {
  const reviewer = people.reviewer === 'pending' ? undefined : people.reviewer;
  const [lab, analystRow, owner, reviewerRow, photos] = await Promise.all([
    labRow ?? readLabSettings(deps.db),
    findUserNameAndSignature(deps.db, people.analyst.id),
    findUserNameAndSignature(deps.db, sample.userId),
    reviewer ? findUserNameAndSignature(deps.db, reviewer.id) : undefined,
    reportPhotos(deps, sample.id, content.photoIds),
  ]);
  const [logo, signature, reviewerSignature] = await Promise.all([
    readImage(deps, lab?.logo),
    readImage(deps, analystRow?.signature),
    readImage(deps, reviewerRow?.signature),
  ]);
  const services = SERVICES.filter((s) => sample[s.field]).map((s) => s.label);
  // A comparable may show one of the sample's photos: the table names it.
  const photoNames = content.comparables.some((c) => c.photoFileId)
    ? new Map((await findSamplePhotos(deps.db, sample.id)).map((p) => [p.id, p.originalName]))
    : undefined;
  return {
    lab: {
      name: lab?.labName?.trim() || DEFAULT_LAB_NAME,
      address: lab?.address?.trim() || LAB_FIXED_ADDRESS,
      phone: lab?.phone?.trim() || LAB_FIXED_PHONE,
      email: lab?.email?.trim() || null,
      certificationNumber: lab?.certificationNumber?.trim() || null,
      logo,
    },
    sample: {
      displayId: displaySampleId(sample.id),
      itemName: sample.itemName,
      category: optionLabel(CATEGORIES, sample.category) || sample.category,
      description: sample.description,
      submissionDate: sample.submissionDate,
      services: services.length ? services.join(', ') : 'Basic Assessment',
      ownerName:
        sample.isRepresentative && sample.clientName
          ? sample.clientName
          : personName(owner) || sample.submitterName,
    },
    elements,
    content,
    photos,
    certification: content.assignment ? lab?.certificationTemplate || DEFAULT_CERTIFICATION : null,
    photoNames,
    analyst: {
      name: personName(analystRow) || people.analyst.fallbackName,
      signature,
      qualifications: analystRow?.qualifications ?? null,
    },
    reviewer:
      people.reviewer === 'pending'
        ? ('pending' as const)
        : reviewer
          ? {
              name: personName(reviewerRow) || 'Laboratory reviewer',
              signature: reviewerSignature,
              reviewedAt: reviewer.reviewedAt,
              qualifications: reviewerRow?.qualifications ?? null,
            }
          : null,
  };
}

type PdfBase = Awaited<ReturnType<typeof pdfInputFor>>;

/**
 * The Certification as a public revision's PDF states it (the lab's text, each signatory's name and
 * qualifications), kept with the revision so the sample page shows what was certified.
 */
export function certificationOf(base: PdfBase): CertificationContent | null {
  if (!base.content.assignment || !base.certification) return null;
  const reviewer = base.reviewer && base.reviewer !== 'pending' ? base.reviewer : null;
  return {
    text: base.certification,
    signatories: [
      { role: 'analyst', name: base.analyst.name, qualifications: base.analyst.qualifications || null },
      ...(reviewer
        ? [
            {
              role: 'reviewer' as const,
              name: reviewer.name,
              qualifications: reviewer.qualifications || null,
            },
          ]
        : []),
    ],
  };
}
type LabSettingsRow = NonNullable<Awaited<ReturnType<typeof readLabSettings>>>;

/**
 * Draws one revision's PDF. A public revision is signed with the lab's certificate (what is stored,
 * served and hashed is the signed file: docs/product/signed-reports.md); a draft awaiting review is
 * not, so no copy of it can pass for an issued report.
 */
export async function renderRevision(
  deps: IssueDeps,
  base: PdfBase,
  at: { reportCode: string; revision: number; issuedAt: Date },
): Promise<{ pdf: Buffer; sha256: string }> {
  const draft = base.reviewer === 'pending';
  const unsigned = await renderReportPdf({
    ...base,
    ...at,
    verifyUrl: `${deps.config.publicUrl}/verify-report?code=${at.reportCode}`,
    ...(draft
      ? {}
      : {
          signing: {
            signerName: deps.keys.pdf.signerName,
            location: base.lab.address,
            contactInfo: deps.config.publicUrl,
          },
        }),
  });
  const pdf = draft ? unsigned : await deps.keys.pdf.sign(unsigned, at.issuedAt);
  return { pdf, sha256: createHash('sha256').update(pdf).digest('hex') };
}

export const CONCURRENT_ISSUE_MESSAGE =
  'The report was issued by someone else at the same time; please try again';

/**
 * Runs `work` in one transaction holding the sample's report lock: one issue, approval or send-back
 * per sample at a time (two tabs, two instances). Files stored through `store` are removed again if
 * the transaction fails, so a losing racer never leaves (or removes) a stored PDF.
 */
export async function withReportLock<T>(
  deps: IssueDeps,
  sampleId: number,
  work: (tx: DbOrTx, store: (key: string, bytes: Buffer) => Promise<void>) => Promise<T>,
): Promise<T> {
  const stored: string[] = [];
  try {
    return await deps.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${REPORT_ISSUE_LOCK}, ${sampleId})`);
      return work(tx, async (key, bytes) => {
        await deps.storage.put(key, bytes);
        stored.push(key);
      });
    });
  } catch (err) {
    await Promise.all(stored.map((key) => deps.storage.delete(key).catch(() => {})));
    throw err;
  }
}

/** Inside the lock: is the sample's newest revision still the one read before rendering? */
export async function assertLatestUnchanged(tx: DbOrTx, sampleId: number, expected: RevisionRow | undefined) {
  const now = await latestRevisionOfSample(tx, sampleId);
  if (now?.id !== expected?.id || now?.state !== expected?.state) throw conflict(CONCURRENT_ISSUE_MESSAGE);
}

/**
 * Makes a revision public, inside the lock: the sample carries the code and issue fields, its element
 * table becomes the revision's, and the customer is mailed (in the same transaction).
 */
export async function publishRevision(
  tx: DbOrTx,
  deps: IssueDeps,
  sample: SampleRow,
  values: {
    reportCode: string;
    revision: number;
    issuedAt: Date;
    issuedBy: number;
    elements: ElementValues[];
    revalueBy: string | null;
  },
) {
  const marked = await markSampleIssued(tx, sample.id, values, sample.reportCode);
  if (!marked) throw conflict(CONCURRENT_ISSUE_MESSAGE);
  await replaceReportElements(tx, sample.id, values.elements);
  await mailReportIssued(tx, deps.mailer, sample, values.reportCode, values.revision);
  await emitWebhookEvent(tx, 'report.issued', sample.userId, {
    sampleId: sample.id,
    displayId: displaySampleId(sample.id),
    itemName: sample.itemName,
    reportCode: values.reportCode,
    revision: values.revision,
    issuedAt: isoDate(values.issuedAt),
  });
  await scheduleRevaluationNotice(tx, sample.id, values.revalueBy);
}

/** A draft's file: a fresh name each time, as a draft sent back is replaced by the next one. */
const draftStorageKey = (code: string, revision: number) =>
  `reports/${code}-r${revision}-draft-${randomBytes(6).toString('hex')}.pdf`;

/**
 * Issues a report (docs/product/signed-reports.md): renders and signs the PDF once, stores it with its
 * SHA-256 as the next revision, and replaces the sample's elements, all recorded in one transaction.
 * When the lab requires a second review (docs/product/valuation-report.md) the revision is stored as
 * `awaiting-review` instead, with an unsigned draft, and nothing public changes until it is approved.
 */
export async function issueReport(
  deps: IssueDeps,
  user: AuthUser,
  sampleId: number,
  input: IssueReportBody | ReportElementInput[],
  ip?: string | null,
): Promise<IssueReportResponse> {
  const { sample, elements, content, review, base, analystId } = await prepareIssue(
    deps,
    user,
    sampleId,
    input,
  );
  // 'Also mark the sample Completed': now with the report, or when the second expert approves it.
  const completeWanted = !Array.isArray(input) && input.markCompleted === true;
  const completeNow = completeWanted && !review && normalizeStatus(sample.status) !== 'completed';

  for (let attempt = 0; attempt < MAX_CODE_ATTEMPTS; attempt++) {
    const latest = await latestRevisionOfSample(deps.db, sample.id);
    if (latest?.state === 'awaiting-review') throw conflict(REVIEW_MESSAGES.alreadyAwaiting);
    // A draft that was sent back is replaced by this one, under its number (and code, if it was the first).
    const replaced = latest?.state === 'returned' ? latest : undefined;
    const existingCode = sample.reportCode ?? replaced?.reportCode ?? null;
    const reportCode = existingCode ?? newReportCode();
    const revision = replaced ? replaced.revision : (latest?.revision ?? 0) + 1;
    const issuedAt = new Date();
    const { pdf, sha256 } = await renderRevision(deps, base, { reportCode, revision, issuedAt });
    const storageKey = review
      ? draftStorageKey(reportCode, revision)
      : reportStorageKey(reportCode, revision);
    try {
      await withReportLock(deps, sample.id, async (tx, store) => {
        await assertLatestUnchanged(tx, sample.id, latest);
        await store(storageKey, pdf);
        if (!review)
          await publishRevision(tx, deps, sample, {
            reportCode,
            revision,
            issuedAt,
            issuedBy: user.id,
            elements,
            revalueBy: content.revalueBy,
          });
        if (replaced) await deleteRevision(tx, replaced.id);
        await insertRevision(tx, {
          sampleId: sample.id,
          reportCode,
          revision,
          storageKey,
          sha256,
          byteSize: pdf.length,
          issuedAt,
          issuedBy: user.id,
          analyzedBy: analystId,
          // A draft awaiting review is certified when it is approved (approveReport).
          content: review ? content : { ...content, certification: certificationOf(base) },
          elements,
          state: review ? 'awaiting-review' : 'issued',
          completeOnApproval: review && completeWanted,
        });
        if (completeNow)
          await changeSampleStatus(tx, deps.mailer, { actor: user, ip }, sample, {
            status: 'completed',
            comment: REPORT_COMPLETED_NOTE,
          });
        await recordAudit(tx, {
          actor: user,
          ip,
          action: review ? 'report.submitted_for_review' : 'report.issued',
          subject: { type: 'sample', id: sample.id },
          before: sample.reportCode
            ? { reportCode: sample.reportCode, revision: latest?.revision ?? null }
            : null,
          after: {
            reportCode,
            revision,
            state: review ? 'awaiting-review' : 'issued',
            pdfSha256: sha256,
            ...appraisalAuditFields(content),
          },
        });
      });
    } catch (err) {
      // A new code that collided with another sample's code: draw another one.
      if (!existingCode && isCodeCollision(err)) continue;
      throw err;
    }
    if (replaced) await deps.storage.delete(replaced.storageKey).catch(() => {});
    const action = sample.reportCode ? 'updated' : 'generated';
    return {
      reportCode,
      revision,
      issuedAt: isoDate(issuedAt),
      sha256,
      action,
      state: review ? 'awaiting-review' : 'issued',
      message: review ? REVIEW_MESSAGES.submitted : `Report ${action} successfully`,
    };
  }
  throw new AppError(500, 'Failed to generate report');
}

/**
 * What issuing (and its preview) checks and draws from, before any code or revision: who may, the
 * checked elements and content, whether the lab requires review, and the PDF's parts.
 */
export async function prepareIssue(
  deps: IssueDeps,
  user: AuthUser,
  sampleId: number,
  input: IssueReportBody | ReportElementInput[],
) {
  const body: IssueReportBody = Array.isArray(input)
    ? { elements: input, photoIds: [], comparables: [] }
    : input;
  // A customer is refused before the lookup, so they learn nothing about which samples exist.
  if (!canIssueReports(user)) throw forbidden(ACCESS_DENIED_MESSAGE);
  const sample = await findSample(deps.db, sampleId);
  if (!sample) throw notFound('Sample not found');
  if (!canIssueReport(user, sample)) throw forbidden(ACCESS_DENIED_MESSAGE);
  if (sample.reportRevokedAt) throw conflict(REVOKED_REISSUE_MESSAGE);
  const elements = checkElements(body.elements);
  const lab = await readLabSettings(deps.db);
  const taxMode = sample.purposeOfValuation === CHARITABLE_DONATION;
  if (taxMode) checkTaxMode(body, lab?.taxFilingWindowMonths ?? DEFAULT_TAX_FILING_WINDOW_MONTHS);
  await checkComparablePhotos(deps, sample.id, body);
  const content = reportContentOf(body, {
    revalueAfterMonths: lab?.revalueAfterMonths ?? DEFAULT_REVALUE_AFTER_MONTHS,
    taxMode,
  });
  const review = lab?.requireReview ?? false;
  const signatories = signatoriesOfIssue(user, sample, review);
  const base = await pdfInputFor(deps, sample, elements, content, signatories, lab);
  return { sample, elements, content, review, base, analystId: signatories.analyst.id };
}

/** What the audit event records of an appraisal: its terms, never a price or a tax detail. */
function appraisalAuditFields(content: ReportContent) {
  const a = content.assignment;
  if (!a) return {};
  return {
    intendedUse: a.intendedUse,
    intendedUsers: a.intendedUsers,
    inspection: a.inspection,
    inspectionDate: a.inspectionDate,
    comparables: content.comparables.length,
    revalueBy: content.revalueBy,
    taxAppraisal: content.taxAppraisal !== null,
  };
}

/** A comparable's photo is one of this sample's photos (400 otherwise). */
async function checkComparablePhotos(deps: IssueDeps, sampleId: number, body: IssueReportBody) {
  if (!body.comparables.some((c) => c.photoFileId)) return;
  const own = new Set((await findSamplePhotos(deps.db, sampleId)).map((p) => p.id));
  const index = body.comparables.findIndex((c) => c.photoFileId && !own.has(c.photoFileId));
  if (index < 0) return;
  const message = APPRAISAL_MESSAGES.foreignComparablePhoto;
  throw badRequest(message, [{ path: `comparables.${index}.photoFileId`, message }]);
}

/** A freshly drawn code already taken: by another sample, or by another sample's draft. */
const isCodeCollision = (err: unknown) =>
  isUniqueViolation(err, 'samples_report_code_unique') ||
  isUniqueViolation(err, 'report_revisions_code_revision_unique');

function isUniqueViolation(err: unknown, constraint: string): boolean {
  let e: unknown = err;
  for (let i = 0; i < 5 && e && typeof e === 'object'; i++) {
    const { code, constraint: c } = e as { code?: unknown; constraint?: unknown };
    if (code === '23505') return c === undefined || c === constraint;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
