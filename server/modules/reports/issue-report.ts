import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import {
  elementSetProblem,
  type IssueReportBody,
  type IssueReportResponse,
  type ReportContent,
  type ReportElementInput,
  VALUATION_MESSAGES,
} from '../../../common/contracts/reports';
import { parseAmount } from '../../../common/domain/money';
import { DEFAULT_LAB_NAME, LAB_FIXED_ADDRESS, LAB_FIXED_PHONE } from '../../../common/domain/reports';
import { CATEGORIES, displaySampleId, optionLabel, SERVICES } from '../../../common/domain/samples';
import type { AppDeps } from '../../app-deps';
import type { AuthUser } from '../../plugins/auth';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../plugins/errors';
import { canIssueReport, canIssueReports } from '../../policies/samples';
import { sanitizeNotes } from './notes-sanitizer';
import { newReportCode } from './report-code';
import { mailReportIssued } from '../../mail/notifications';
import { renderReportPdf } from './report-pdf';
import { displayCopyForDocument } from '../photos/make-photo-copies';
import {
  type ElementValues,
  findSample,
  findSamplePhotos,
  findUserNameAndSignature,
  insertRevision,
  latestRevision,
  markSampleIssued,
  readLabSettings,
  replaceReportElements,
  type SampleRow,
} from './reports.queries';

/** What issuing needs of the app: also built by the demo seed and the benchmark. */
export type IssueDeps = Pick<AppDeps, 'config' | 'db' | 'storage' | 'keys' | 'mailer'>;

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

/** The report's own statements, cleaned for storage: rich texts sanitised, blank fields dropped. */
export function reportContentOf(body: Omit<IssueReportBody, 'elements'>): ReportContent {
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
  };
}

/**
 * The chosen photos as the PDF shows them: display copies (made now if still missing), captioned in
 * order. Every id must be one of this sample's photos (400 otherwise: never another owner's picture).
 */
async function reportPhotos(deps: IssueDeps, sampleId: number, photoIds: readonly number[]) {
  if (!photoIds.length) return [];
  const own = new Map((await findSamplePhotos(deps.db, sampleId)).map((p) => [p.id, p.originalName]));
  const index = photoIds.findIndex((id) => !own.has(id));
  if (index >= 0)
    throw badRequest(VALUATION_MESSAGES.foreignPhoto, [
      { path: `photoIds.${index}`, message: VALUATION_MESSAGES.foreignPhoto },
    ]);
  const copies = await Promise.all(photoIds.map((id) => displayCopyForDocument(deps, id).catch(() => null)));
  return photoIds.flatMap((id, i) => {
    const image = copies[i];
    return image ? [{ image, caption: `Photo ${i + 1}: ${own.get(id) ?? ''}` }] : [];
  });
}

/** Reads an image from storage for the PDF; a missing file leaves the image out. */
async function readImage(deps: IssueDeps, key: string | null | undefined): Promise<Buffer | null> {
  if (!key) return null;
  const storageKey = key.replace(/^\/?Uploads\//i, '');
  try {
    return await deps.storage.read(storageKey);
  } catch {
    return null;
  }
}

const personName = (p: { firstName: string | null; lastName: string | null } | undefined) =>
  p ? [p.firstName, p.lastName].filter(Boolean).join(' ').trim() : '';

async function pdfInputFor(
  deps: IssueDeps,
  sample: SampleRow,
  elements: ElementValues[],
  content: ReportContent,
  issuer: AuthUser,
) {
  const [lab, analystRow, owner] = await Promise.all([
    readLabSettings(deps.db),
    findUserNameAndSignature(deps.db, sample.assignedStaffId ?? issuer.id),
    findUserNameAndSignature(deps.db, sample.userId),
  ]);
  const [logo, signature] = await Promise.all([
    readImage(deps, lab?.logo),
    readImage(deps, analystRow?.signature),
  ]);
  const services = SERVICES.filter((s) => sample[s.field]).map((s) => s.label);
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
    analyst: { name: personName(analystRow) || personName(issuer) || issuer.email, signature },
  };
}

/**
 * Issues a report (docs/product/signed-reports.md): renders and signs the PDF once, stores it with its SHA-256 as the next
 * revision, and replaces the sample's elements, all recorded in one transaction. A stored PDF whose
 * transaction fails is removed again.
 */
export async function issueReport(
  deps: IssueDeps,
  user: AuthUser,
  sampleId: number,
  input: IssueReportBody | ReportElementInput[],
): Promise<IssueReportResponse> {
  const body: IssueReportBody = Array.isArray(input) ? { elements: input, photoIds: [] } : input;
  // A customer is refused before the lookup, so they learn nothing about which samples exist.
  if (!canIssueReports(user)) throw forbidden(ACCESS_DENIED_MESSAGE);
  const sample = await findSample(deps.db, sampleId);
  if (!sample) throw notFound('Sample not found');
  if (!canIssueReport(user, sample)) throw forbidden(ACCESS_DENIED_MESSAGE);
  if (sample.reportRevokedAt) throw conflict(REVOKED_REISSUE_MESSAGE);
  const elements = checkElements(body.elements);
  const photos = await reportPhotos(deps, sample.id, body.photoIds);
  const content = reportContentOf(body);
  const base = { ...(await pdfInputFor(deps, sample, elements, content, user)), photos };

  for (let attempt = 0; attempt < MAX_CODE_ATTEMPTS; attempt++) {
    const existingCode = sample.reportCode;
    const reportCode = existingCode ?? newReportCode();
    const previous = existingCode ? await latestRevision(deps.db, existingCode) : undefined;
    const revision = (previous?.revision ?? 0) + 1;
    const issuedAt = new Date();
    const unsigned = await renderReportPdf({
      ...base,
      reportCode,
      revision,
      issuedAt,
      verifyUrl: `${deps.config.publicUrl}/verify-report?code=${reportCode}`,
      signing: {
        signerName: deps.keys.pdf.signerName,
        location: base.lab.address,
        contactInfo: deps.config.publicUrl,
      },
    });
    // What is stored, served and hashed is the signed file (docs/product/signed-reports.md).
    const pdf = await deps.keys.pdf.sign(unsigned, issuedAt);
    const sha256 = createHash('sha256').update(pdf).digest('hex');
    const storageKey = reportStorageKey(reportCode, revision);
    let stored = false;
    try {
      await deps.db.transaction(async (tx) => {
        // One issue per sample at a time (two tabs, two instances): the file of revision N is written
        // only by the holder of this lock, after checking N is still next, so a losing racer can
        // neither overwrite nor remove the winner's stored PDF.
        await tx.execute(sql`select pg_advisory_xact_lock(${REPORT_ISSUE_LOCK}, ${sample.id})`);
        if (existingCode && ((await latestRevision(tx, existingCode))?.revision ?? 0) !== revision - 1)
          throw conflict('The report was issued by someone else at the same time; please try again');
        await deps.storage.put(storageKey, pdf);
        stored = true;
        const marked = await markSampleIssued(
          tx,
          sample.id,
          { reportCode, issuedAt, issuedBy: user.id },
          existingCode,
        );
        if (!marked)
          throw conflict('The report was issued by someone else at the same time; please try again');
        await replaceReportElements(tx, sample.id, elements);
        await insertRevision(tx, {
          sampleId: sample.id,
          reportCode,
          revision,
          storageKey,
          sha256,
          byteSize: pdf.length,
          issuedAt,
          issuedBy: user.id,
          content,
        });
        await mailReportIssued(tx, deps.mailer, sample, reportCode, revision);
      });
    } catch (err) {
      if (stored) await deps.storage.delete(storageKey).catch(() => {});
      // A new code that collided with another sample's code: draw another one.
      if (!existingCode && isUniqueViolation(err, 'samples_report_code_unique')) continue;
      throw err;
    }
    const action = existingCode ? 'updated' : 'generated';
    return {
      reportCode,
      revision,
      issuedAt: issuedAt.toISOString(),
      sha256,
      action,
      message: `Report ${action} successfully`,
    };
  }
  throw new AppError(500, 'Failed to generate report');
}

function isUniqueViolation(err: unknown, constraint: string): boolean {
  let e: unknown = err;
  for (let i = 0; i < 5 && e && typeof e === 'object'; i++) {
    const { code, constraint: c } = e as { code?: unknown; constraint?: unknown };
    if (code === '23505') return c === undefined || c === constraint;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
