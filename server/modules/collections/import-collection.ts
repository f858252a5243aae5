import {
  IMPORT_MESSAGES,
  type ImportPreview,
  type ImportProblem,
  MAX_IMPORT_BYTES,
} from '../../../common/contracts/collections';
import { displaySampleId } from '../../../common/domain/samples';
import type { AppDeps } from '../../app-deps';
import { recordAudit, type AuditWho } from '../../audit/audit';
import { jobs, sampleFiles, samples, sampleStatusHistory } from '../../db/schema';
import { DEFAULT_MAX_ATTEMPTS } from '../../jobs/jobs';
import type { AuthUser } from '../../plugins/auth';
import { AppError } from '../../plugins/errors';
import { PHOTO_COPIES_FAIR_KEY_PREFIX, PHOTO_COPIES_QUEUE } from '../photos/photo-copies.job';
import {
  type Budget,
  removeStoredFiles,
  storageFullMessage,
  submissionsPerHourMessage,
} from '../samples/samples.upload';
import { releaseReservation, reserveSubmission } from '../samples/submission-reservations.queries';
import { newSampleColumns } from '../samples/submit-sample';
import { touchCollection } from './collections.queries';
import { collectionToFill } from './fill-collection';
import { checkImport, readImportCsv } from './import-csv';
import type { ReceivedImport } from './import-upload';

// Bulk intake (docs/product/collections.md, docs/decisions/0028-collections-and-bulk-intake.md):
// every row of the CSV becomes a sample of the collection, with its photos, its first status entry,
// its photo-copy jobs and its audit event, in ONE transaction: all rows or none. One mail tells the
// owner what was imported.

/** Rows inserted per statement: well under PostgreSQL's 65,535 parameters at ~35 columns a row. */
const INSERT_BATCH = 250;

/**
 * The customer's limits for an import, reserved before its body is read: the import is one
 * submission in the hour's count (refused with 429 when the hour's count is reached) and reserves
 * its declared length, at most MAX_IMPORT_BYTES and what is left of the storage allowance (413 when
 * none is). The items it creates count in the hour afterwards, like any submission.
 */
export async function importBudget(
  deps: Pick<AppDeps, 'config' | 'db'>,
  userId: number,
  declaredBytes: number | undefined,
): Promise<Budget> {
  const unlimited = { remaining: Number.POSITIVE_INFINITY, limit: Number.POSITIVE_INFINITY };
  if (!deps.config.rateLimits) return unlimited;
  const { customerSubmissionsPerHour: perHour, customerStorageBytes: limitBytes } = deps.config;
  const wantBytes = Math.min(declaredBytes ?? MAX_IMPORT_BYTES, MAX_IMPORT_BYTES);
  const outcome = await reserveSubmission(deps.db, userId, { perHour, limitBytes, wantBytes });
  if (!outcome.ok && outcome.reason === 'hourly')
    throw new AppError(429, submissionsPerHourMessage(perHour), undefined, { 'retry-after': '600' });
  if (!outcome.ok) throw new AppError(413, storageFullMessage(limitBytes));
  return { remaining: outcome.reservation.bytes, limit: limitBytes, reservationId: outcome.reservation.id };
}

/** The refusal of an import: 400 with every problem, the message saying how many. */
export const importRefusal = (problems: ImportProblem[]) =>
  new AppError(400, IMPORT_MESSAGES.refused(problems.length), problems);

/** `?dryRun=1`: the CSV as read and every problem, nothing stored. */
export function previewImport(received: ReceivedImport): ImportPreview {
  const csv = readImportCsv(received.csv);
  const { problems } = checkImport(csv, received.photoNames);
  return { columns: csv.columns, rows: csv.rows, errors: problems, valid: problems.length === 0 };
}

const chunks = <T>(list: T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size));

/**
 * Imports the received CSV and photos into collection `collectionId` for `user`: all rows or none.
 * Refused (400 with every row's problems, or the CSV's own 400/413) before anything is written;
 * the stored photos are removed on any failure. Answers the new samples' ids in row order.
 */
export async function importIntoCollection(
  deps: Pick<AppDeps, 'db' | 'storage' | 'mailer'>,
  user: AuthUser,
  who: AuditWho,
  collectionId: number,
  received: ReceivedImport,
  reservationId?: number,
): Promise<number[]> {
  try {
    const csv = readImportCsv(received.csv);
    const checked = checkImport(csv, received.photoNames);
    if (checked.problems.length) throw importRefusal(checked.problems);
    return await deps.db.transaction(async (tx) => {
      const collection = await collectionToFill(tx, user, collectionId);
      const ids: number[] = [];
      for (const batch of chunks(checked.valid, INSERT_BATCH)) {
        const inserted = await tx
          .insert(samples)
          .values(
            batch.map(({ submission }) => ({
              ...newSampleColumns(user.id, submission),
              collectionId: collection.id,
              status: 'submitted',
            })),
          )
          .returning({ id: samples.id });
        ids.push(...inserted.map((r) => r.id));
      }
      // Returned in the order inserted (one statement per batch, serial ids).
      ids.sort((a, b) => a - b);
      const files = checked.valid.flatMap(({ row }, i) =>
        row.photos.map((name) => {
          const f = received.photos.get(name);
          if (!f) throw new Error(`photo ${name} not stored`);
          return {
            sampleId: ids[i] as number,
            fileName: f.fileName,
            originalName: f.originalName,
            fileType: f.fileType,
            fileSize: f.fileSize,
            fileCategory: 'photo',
            copiesState: 'pending',
          };
        }),
      );
      for (const batch of chunks(files, INSERT_BATCH * 4)) {
        const fileIds = await tx.insert(sampleFiles).values(batch).returning({ id: sampleFiles.id });
        await tx.insert(jobs).values(
          fileIds.map((f) => ({
            queue: PHOTO_COPIES_QUEUE,
            payload: { fileId: f.id },
            maxAttempts: DEFAULT_MAX_ATTEMPTS,
            fairKey: `${PHOTO_COPIES_FAIR_KEY_PREFIX}${user.id}`,
          })),
        );
      }
      for (const batch of chunks(ids, INSERT_BATCH * 4))
        await tx.insert(sampleStatusHistory).values(
          batch.map((sampleId) => ({
            sampleId,
            status: 'submitted',
            comment: `Imported into the collection "${collection.name}"`.slice(0, 255),
            updatedBy: user.id,
          })),
        );
      if (reservationId) await releaseReservation(tx, reservationId);
      await touchCollection(tx, collection.id);
      for (const [i, { row, submission }] of checked.valid.entries())
        await recordAudit(tx, {
          ...who,
          action: 'sample.imported',
          subject: { type: 'sample', id: ids[i] as number },
          after: { collectionId: collection.id, row: row.row, itemName: submission.itemName },
        });
      await deps.mailer.queue(tx, user.email, 'collectionImported', {
        firstName: user.firstName,
        collectionName: collection.name,
        count: ids.length,
        firstId: displaySampleId(ids[0] as number),
        lastId: displaySampleId(ids[ids.length - 1] as number),
        collectionUrl: deps.mailer.url(`/collections/${collection.id}`),
      });
      return ids;
    });
  } catch (err) {
    await removeStoredFiles(deps.storage, [...received.photos.values()]);
    throw err;
  }
}
