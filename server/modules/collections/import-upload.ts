import type { FastifyRequest } from 'fastify';
import {
  IMPORT_MESSAGES,
  MAX_IMPORT_CSV_BYTES,
  MAX_IMPORT_PHOTOS,
} from '../../../common/contracts/collections';
import { MAX_SAMPLE_FILE_BYTES } from '../../../common/domain/uploads';
import { AppError } from '../../plugins/errors';
import { isCleanText } from '../../plugins/text-guard';
import type { Storage } from '../../storage/storage';
import {
  type Budget,
  removeStoredFiles,
  SAMPLE_UPLOAD_MESSAGES,
  type StoredFile,
  storeFilePart,
} from '../samples/samples.upload';

// Reads the multipart body of an import (docs/product/collections.md): the CSV (part `file`) into
// memory, at most MAX_IMPORT_CSV_BYTES; each photo (parts `photos`) through the submission's own
// checks (type by content, size, declared pixels) straight to storage. A dry run stores nothing: it
// only notes the photos' names (parts `photos`, drained, and text fields `photoNames`). On any
// failure every file already written is removed before the error leaves.

export type ReceivedImport = {
  csv: string;
  /** The stored photos by the name they were uploaded under (a dry run: none). */
  photos: Map<string, StoredFile>;
  /** Every photo name that came (a dry run's names included). */
  photoNames: string[];
};

/** CSV files as browsers and tools label them (Windows labels .csv as an Excel type). */
const CSV_TYPES = new Set(['text/csv', 'application/csv', 'text/plain', 'application/vnd.ms-excel']);

async function readCsvPart(part: { file: AsyncIterable<Buffer>; mimetype: string; filename: string }) {
  const isCsv =
    CSV_TYPES.has(part.mimetype) && (part.mimetype === 'text/csv' || /\.csv$/i.test(part.filename));
  if (!isCsv) throw new AppError(415, IMPORT_MESSAGES.csvType);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of part.file) {
    size += chunk.length;
    if (size > MAX_IMPORT_CSV_BYTES) throw new AppError(413, IMPORT_MESSAGES.csvTooLarge);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!isCleanText(text)) throw new AppError(415, IMPORT_MESSAGES.csvType);
  return text;
}

export async function receiveImport(
  request: FastifyRequest,
  storage: Storage,
  budget: Budget,
  dryRun: boolean,
): Promise<ReceivedImport> {
  let csv: string | undefined;
  const photos = new Map<string, StoredFile>();
  const photoNames: string[] = [];
  const stored = () => [...photos.values()];
  const noteName = (raw: string) => {
    const name = raw.trim();
    if (!name) return;
    if (photoNames.includes(name)) throw new AppError(400, IMPORT_MESSAGES.photoUploadedTwice(name));
    if (photoNames.length >= MAX_IMPORT_PHOTOS) throw new AppError(413, IMPORT_MESSAGES.tooManyPhotos);
    photoNames.push(name);
    return name;
  };
  try {
    for await (const part of request.parts({
      limits: {
        fileSize: Math.max(MAX_SAMPLE_FILE_BYTES, MAX_IMPORT_CSV_BYTES),
        files: MAX_IMPORT_PHOTOS + 1,
        fields: MAX_IMPORT_PHOTOS + 10,
        parts: 2 * MAX_IMPORT_PHOTOS + 20,
        fieldSize: 64 * 1024,
      },
    })) {
      if (part.type === 'field') {
        if (dryRun && part.fieldname === 'photoNames' && typeof part.value === 'string') noteName(part.value);
        continue;
      }
      if (part.fieldname === 'file') {
        if (csv !== undefined) throw new AppError(400, 'Send one CSV file per import');
        csv = await readCsvPart(part);
        continue;
      }
      if (part.fieldname !== 'photos') {
        part.file.resume();
        continue;
      }
      const name = noteName(part.filename);
      if (dryRun || !name) {
        part.file.resume();
        continue;
      }
      photos.set(name, await storeFilePart(storage, part.file, 'photo', name, budget));
    }
    if (request.raw.aborted) throw new AppError(400, 'The upload was interrupted');
    if (csv === undefined) throw new AppError(400, IMPORT_MESSAGES.csvMissing);
    return { csv, photos, photoNames };
  } catch (err) {
    await removeStoredFiles(storage, stored());
    if (err instanceof AppError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(413, SAMPLE_UPLOAD_MESSAGES.fileTooLarge);
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
      throw new AppError(413, IMPORT_MESSAGES.tooManyPhotos);
    throw err;
  }
}
