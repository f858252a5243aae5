import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import {
  DOCUMENT_MIME_TYPES,
  inMegabytes,
  MAX_SAMPLE_DOCUMENTS,
  MAX_SAMPLE_FILE_BYTES,
  MAX_SAMPLE_PHOTOS,
  PHOTO_MIME_TYPES,
} from '../../../common/domain/uploads';
import { AppError } from '../../plugins/errors';
import { checkDeclaredImageSize } from '../../plugins/image-size';
import { invalidText, isCleanText } from '../../plugins/text-guard';
import type { Storage } from '../../storage/storage';
import { isWordDocument } from './word-document';

// Streams the parts of POST /api/samples to storage: each file goes straight to disk under a random
// name after its first bytes were checked (docs/product/limits.md), so memory stays flat however large the
// request. Text fields are collected for validation. On any failure every file already written is
// removed before the error leaves, so a refused or broken submission leaves nothing behind.

export type FileCategory = 'photo' | 'document';

export type StoredFile = {
  key: string;
  fileName: string;
  originalName: string;
  fileType: string;
  fileSize: number;
  fileCategory: FileCategory;
};

/** The customer's storage allowance is used up (docs/product/security.md). */
export const storageFullMessage = (limitBytes: number) =>
  `Your account has reached its storage limit of ${formatBytes(limitBytes)} for sample files. Please contact the laboratory if you need more.`;
export const submissionsPerHourMessage = (max: number) =>
  `You have submitted ${max} samples in the last hour, the most allowed. Please wait a while before submitting more.`;

function formatBytes(n: number): string {
  if (n >= 1024 ** 3) return `${Math.round((n / 1024 ** 3) * 10) / 10} GB`;
  return `${Math.round((n / 1024 ** 2) * 10) / 10} MB`;
}

export const SAMPLE_UPLOAD_MESSAGES = {
  tooManyPhotos: `At most ${MAX_SAMPLE_PHOTOS} photos can be uploaded`,
  tooManyDocuments: `At most ${MAX_SAMPLE_DOCUMENTS} documents can be uploaded`,
  fileTooLarge: `Each file must be ${inMegabytes(MAX_SAMPLE_FILE_BYTES)}MB or smaller`,
  photoType: 'Photos must be JPG, PNG or HEIC images',
  documentType: 'Documents must be PDF, DOC, DOCX, JPG or PNG files',
} as const;

/** Enough of the file's head for file-type to recognise every accepted format (docx needs the zip's first entry). */
const SNIFF_BYTES = 64 * 1024;

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/heic': 'heic',
  'image/heif': 'heic',
  'application/pdf': 'pdf',
  'application/msword': 'doc',
  'application/x-cfb': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
};

/** OLE compound files: accepted only as legacy Word documents. */
const COMPOUND_FILE_TYPES = new Set(['application/msword', 'application/x-cfb']);
/** Images are read whole (at most the file limit) so their declared size is checked before storing. */
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/heic', 'image/heif']);

const FIELD_CATEGORY: Record<string, FileCategory> = { photos: 'photo', documents: 'document' };

function cleanOriginalName(name: string | undefined, fallback: string): string {
  const cleaned = (name ?? '')
    // eslint-disable-next-line no-control-regex -- strip control characters from a client's file name
    .replace(/[\u0000-\u001f\u007f/\\]/g, '')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
    .trim();
  return (cleaned || fallback).slice(0, 255);
}

/** Bytes a submission may still store (the customer's allowance left), and the allowance. */
export type Budget = {
  remaining: number;
  limit: number;
  /** The reservation that holds these bytes (server/modules/samples/submission-reservations.queries.ts). */
  reservationId?: number;
};

export async function storeFilePart(
  storage: Storage,
  file: NodeJS.ReadableStream & { truncated?: boolean },
  category: FileCategory,
  originalName: string,
  budget: Budget,
): Promise<StoredFile> {
  const iterator = (file as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let headSize = 0;
  let ended = false;
  while (headSize < SNIFF_BYTES) {
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      break;
    }
    head.push(next.value);
    headSize += next.value.length;
  }
  const headBuffer = Buffer.concat(head);
  const allowed: readonly string[] = category === 'photo' ? PHOTO_MIME_TYPES : DOCUMENT_MIME_TYPES;
  const detected = headBuffer.length ? await fileTypeFromBuffer(headBuffer) : undefined;
  if (!detected || !allowed.includes(detected.mime)) {
    throw new AppError(
      415,
      category === 'photo' ? SAMPLE_UPLOAD_MESSAGES.photoType : SAMPLE_UPLOAD_MESSAGES.documentType,
    );
  }
  const tooLarge = () => new AppError(413, SAMPLE_UPLOAD_MESSAGES.fileTooLarge);
  const overBudget = () => new AppError(413, storageFullMessage(budget.limit));
  if (headBuffer.length > MAX_SAMPLE_FILE_BYTES) throw tooLarge();
  if (headBuffer.length > budget.remaining) throw overBudget();

  async function* body() {
    let size = headBuffer.length;
    yield headBuffer;
    if (ended) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) break;
      size += next.value.length;
      if (size > MAX_SAMPLE_FILE_BYTES) throw tooLarge();
      if (size > budget.remaining) throw overBudget();
      yield next.value;
    }
    if (file.truncated) throw tooLarge();
  }

  const readWhole = async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of body()) chunks.push(chunk);
    return Buffer.concat(chunks);
  };
  let content: Buffer | Readable = ended ? headBuffer : Readable.from(body(), { objectMode: false });
  if (COMPOUND_FILE_TYPES.has(detected.mime)) {
    // A compound file's directory may sit anywhere in it: read it whole (at most the file limit) and
    // accept it only when it is a Word document (./word-document.ts).
    const whole = await readWhole();
    if (!isWordDocument(whole)) throw new AppError(415, SAMPLE_UPLOAD_MESSAGES.documentType);
    content = whole;
  } else if (IMAGE_TYPES.has(detected.mime)) {
    // An image's header may sit past the sniffed head (a JPEG's EXIF and colour profile come first):
    // read it whole and refuse it before anything is stored when it declares too many pixels.
    const whole = ended ? headBuffer : await readWhole();
    await checkDeclaredImageSize(whole, detected.mime);
    content = whole;
  }

  const ext = EXTENSIONS[detected.mime] ?? detected.ext;
  const fileName = `${randomBytes(16).toString('hex')}.${ext}`;
  const key = `uploads/${fileName}`;
  // A file that fit in the sniffed head is written in one go; longer ones stream to storage.
  const { size } = await storage.put(key, content);
  budget.remaining -= size;
  return {
    key,
    fileName,
    originalName: cleanOriginalName(originalName, fileName),
    fileType: detected.mime === 'image/heif' ? 'image/heic' : detected.mime,
    fileSize: size,
    fileCategory: category,
  };
}

/**
 * Reads the whole multipart submission. Resolves with the text fields and the stored files; on any
 * error (limits, wrong type, a cut connection) removes the files it wrote and rethrows.
 */
export async function receiveSampleSubmission(
  request: FastifyRequest,
  storage: Storage,
  /** Bytes this submission may still store (the customer's allowance left), and the allowance. */
  budget: Budget = { remaining: Number.POSITIVE_INFINITY, limit: Number.POSITIVE_INFINITY },
  /** Which file fields are read (others are skipped): the submission's photos and documents by default. */
  fileFields: Readonly<Record<string, FileCategory>> = FIELD_CATEGORY,
): Promise<{ fields: Record<string, string>; files: StoredFile[] }> {
  const fields: Record<string, string> = {};
  const files: StoredFile[] = [];
  const counts: Record<FileCategory, number> = { photo: 0, document: 0 };
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        // Only the first value of a text field counts; unknown fields are ignored.
        if (typeof part.value === 'string' && !(part.fieldname in fields)) {
          if (!isCleanText(part.value)) throw invalidText(part.fieldname);
          fields[part.fieldname] = part.value;
        }
        continue;
      }
      const category = Object.hasOwn(fileFields, part.fieldname) ? fileFields[part.fieldname] : undefined;
      if (!category) {
        part.file.resume();
        continue;
      }
      counts[category] += 1;
      const limit = category === 'photo' ? MAX_SAMPLE_PHOTOS : MAX_SAMPLE_DOCUMENTS;
      if (counts[category] > limit) {
        throw new AppError(
          413,
          category === 'photo'
            ? SAMPLE_UPLOAD_MESSAGES.tooManyPhotos
            : SAMPLE_UPLOAD_MESSAGES.tooManyDocuments,
        );
      }
      files.push(await storeFilePart(storage, part.file, category, part.filename, budget));
    }
    if (request.raw.aborted) throw new AppError(400, 'The upload was interrupted');
    return { fields, files };
  } catch (err) {
    await removeStoredFiles(storage, files);
    if (err instanceof AppError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(413, SAMPLE_UPLOAD_MESSAGES.fileTooLarge);
    throw err;
  }
}

export async function removeStoredFiles(storage: Storage, files: { key: string }[]): Promise<void> {
  await Promise.all(files.map((f) => storage.delete(f.key).catch(() => undefined)));
}
