import {
  SAMPLE_SUBMISSION_MESSAGES,
  type SampleSubmission,
  sampleSubmissionFields,
} from '../../../common/contracts/samples';
import { displaySampleId, samplePageFromMail } from '../../../common/domain/samples';
import { parseAmount } from '../../../common/domain/money';
import type { AppDeps } from '../../app-deps';
import type { AuthUser } from '../../plugins/auth';
import { AppError, type FieldError, fieldErrors, invalidPayload, notFound } from '../../plugins/errors';
import { COLLECTION_MESSAGES, submissionCollectionId } from '../../../common/contracts/collections';
import {
  MAX_SAMPLE_DOCUMENTS,
  MAX_SAMPLE_FILE_BYTES,
  MAX_SAMPLE_PHOTOS,
} from '../../../common/domain/uploads';
import {
  type DrawnSampleId,
  insertSubmittedSample,
  type NewSample,
  ownsCollection,
  type SampleRow,
} from './samples.queries';
import { reserveSubmission } from './submission-reservations.queries';
import {
  type Budget,
  removeStoredFiles,
  type StoredFile,
  storageFullMessage,
  submissionsPerHourMessage,
} from './samples.upload';

// What happens when a customer submits a sample (docs/product/api.md, "Samples"). The request has
// already been read by samples.upload.ts: its text fields collected and its files stored.

export type SubmitDeps = Pick<AppDeps, 'config' | 'db' | 'database' | 'storage' | 'mailer'>;
export type ReceivedSubmission = { fields: Record<string, string>; files: StoredFile[] };

/** The most a submission's files can weigh together: every file at its limit. */
export const MAX_SUBMISSION_BYTES = (MAX_SAMPLE_PHOTOS + MAX_SAMPLE_DOCUMENTS) * MAX_SAMPLE_FILE_BYTES;

/**
 * The customer's limits (docs/product/security.md), reserved before a byte of the upload is read:
 * too many submissions in the last hour (those in progress included) → 429, storage allowance used
 * up (bytes reserved by submissions in progress included) → 413. Reserves the request's declared
 * length (at most MAX_SUBMISSION_BYTES, at most what is left) and resolves with it as what the
 * upload may store; the caller ends the reservation (`releaseReservation`) when the submission
 * fails. No limit when rate limits are off.
 */
export async function submissionBudget(
  deps: SubmitDeps,
  userId: number,
  declaredBytes: number | undefined,
): Promise<Budget | undefined> {
  if (!deps.config.rateLimits) return undefined;
  const { customerSubmissionsPerHour: perHour, customerStorageBytes: limitBytes } = deps.config;
  const wantBytes = Math.min(
    declaredBytes !== undefined && Number.isFinite(declaredBytes) && declaredBytes >= 0
      ? declaredBytes
      : MAX_SUBMISSION_BYTES,
    MAX_SUBMISSION_BYTES,
  );
  const outcome = await reserveSubmission(deps.db, userId, { perHour, limitBytes, wantBytes });
  if (!outcome.ok && outcome.reason === 'hourly')
    throw new AppError(429, submissionsPerHourMessage(perHour), undefined, { 'retry-after': '600' });
  if (!outcome.ok) throw new AppError(413, storageFullMessage(limitBytes));
  return { remaining: outcome.reservation.bytes, limit: limitBytes, reservationId: outcome.reservation.id };
}

/**
 * The collection a submission joins ("Add to collection…", docs/product/collections.md): none when
 * the field is empty; one of the submitter's own collections, else 404 as for anyone else's.
 */
async function submissionCollection(
  deps: SubmitDeps,
  userId: number,
  value: string | undefined,
): Promise<number | null> {
  const text = value?.trim();
  if (!text) return null;
  const parsed = submissionCollectionId.safeParse(text);
  if (!parsed.success)
    throw invalidPayload([{ path: 'collectionId', message: COLLECTION_MESSAGES.notFound }]);
  if (!(await ownsCollection(deps.db, userId, parsed.data))) throw notFound(COLLECTION_MESSAGES.notFound);
  return parsed.data;
}

/** Every problem of a submission, in the order the form shows them: the photo first. */
function submissionProblems(
  parsed: ReturnType<typeof sampleSubmissionFields.safeParse>,
  files: StoredFile[],
): FieldError[] {
  const problems = parsed.success ? [] : fieldErrors(parsed.error.issues, 'body');
  if (!files.some((f) => f.fileCategory === 'photo'))
    problems.unshift({ path: 'photos', message: SAMPLE_SUBMISSION_MESSAGES.photoRequired });
  return problems;
}

/**
 * The new sample's columns: the submitter's own fields always; the representative's only when they
 * act for someone else, and then the owner's name defaults to the submitter's. Nothing the lab
 * decides (status, assignment, report) comes from the form.
 */
export function newSampleColumns(userId: number, v: SampleSubmission): NewSample {
  const isRepresentative = !v.isPersonalSubmission;
  return {
    userId,
    submitterName: v.submitterName,
    submitterEmail: v.submitterEmail,
    submitterPhone: v.submitterPhone,
    submitterCountry: v.submitterCountry,
    isPersonalSubmission: v.isPersonalSubmission,
    isRepresentative,
    representativeName: isRepresentative ? v.representativeName : null,
    representativeEmail: isRepresentative ? v.representativeEmail : null,
    relationshipToOwner: isRepresentative ? v.relationshipToOwner : null,
    representativeRelation: isRepresentative ? v.relationshipToOwner : null,
    clientName: isRepresentative ? (v.clientName ?? v.submitterName) : null,
    itemName: v.itemName,
    category: v.category,
    estimatedAge: v.estimatedAge,
    description: v.description,
    dimensions: v.dimensions,
    weight: v.weight,
    materials: v.materials,
    expertValuation: v.expertValuation,
    authenticityCheck: v.authenticityCheck,
    conditionAssessment: v.conditionAssessment,
    provenanceResearch: v.provenanceResearch,
    purposeOfValuation: v.purposeOfValuation,
    urgencyLevel: v.urgencyLevel,
    estimatedValueRange: v.estimatedValueRange,
    specialInstructions: v.specialInstructions,
    ...declaredValueColumns(v),
  };
}

/** The owner's declared value in minor units (the contract has checked it), or none. */
function declaredValueColumns(
  v: SampleSubmission,
): Pick<NewSample, 'declaredValueMinor' | 'declaredCurrency'> {
  if (v.declaredValue === null || !v.declaredCurrency)
    return { declaredValueMinor: null, declaredCurrency: null };
  const parsed = parseAmount(v.declaredValue, v.declaredCurrency);
  return parsed.ok
    ? { declaredValueMinor: parsed.minor, declaredCurrency: v.declaredCurrency }
    : { declaredValueMinor: null, declaredCurrency: null };
}

/**
 * Submits a sample for `user`: checks the fields against the shared contract and that at least
 * one photo came, then records the sample, its files, its first status entry ('submitted') and the
 * receipt mail (docs/product/mail.md) in one statement. A refused or failed submission removes the
 * stored files, so it leaves nothing.
 */
export async function submitSample(
  deps: SubmitDeps,
  user: Pick<AuthUser, 'id' | 'email' | 'firstName'>,
  { fields, files }: ReceivedSubmission,
  /** The customer's reservation (submissionBudget), ended by the statement that stores the sample. */
  reservationId?: number,
  /** The sample's id, drawn while the upload was read (`drawSampleId`); drawn after it when not given. */
  drawn?: Promise<DrawnSampleId>,
): Promise<SampleRow> {
  try {
    const parsed = sampleSubmissionFields.safeParse(fields);
    const problems = submissionProblems(parsed, files);
    if (!parsed.success || problems.length) throw invalidPayload(problems);
    const collectionId = await submissionCollection(deps, user.id, fields.collectionId);
    const created = await insertSubmittedSample(
      deps.database,
      { ...newSampleColumns(user.id, parsed.data), collectionId },
      files.map(({ key: _key, ...file }) => file),
      (sampleId, lab) =>
        deps.mailer.render(
          deps.db,
          user.email,
          'sampleSubmitted',
          {
            firstName: user.firstName,
            displayId: displaySampleId(sampleId),
            itemName: parsed.data.itemName,
            sampleUrl: deps.mailer.url(samplePageFromMail(sampleId)),
          },
          lab,
        ),
      reservationId,
      drawn,
    );
    return created.sample;
  } catch (err) {
    await removeStoredFiles(deps.storage, files);
    throw err;
  }
}
