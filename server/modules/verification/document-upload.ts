import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { inMegabytes, MAX_SAMPLE_FILE_BYTES } from '../../../common/domain/uploads';
import { AppError, badRequest } from '../../plugins/errors';

const ONE_FILE_MESSAGE = 'Upload exactly one PDF file, in the field "file"';
const DOCUMENT_TOO_LARGE_MESSAGE = `The file must be ${inMegabytes(MAX_SAMPLE_FILE_BYTES)}MB or smaller`;
const FILE_REQUIRED = 'A PDF file is required';

/**
 * The SHA-256 of the one file of a document check's multipart body, streamed (never held whole):
 * exactly one file, in the part named "file"; a second file (of any name) is refused.
 */
export async function readDocumentDigest(request: FastifyRequest): Promise<string> {
  if (!request.isMultipart()) throw badRequest(FILE_REQUIRED, [{ path: 'file', message: FILE_REQUIRED }]);
  let digest: string | null = null;
  let files = 0;
  for await (const part of request.parts()) {
    if (part.type !== 'file') continue;
    files += 1;
    if (files > 1 || part.fieldname !== 'file') {
      part.file.resume();
      throw badRequest(ONE_FILE_MESSAGE, [{ path: 'file', message: ONE_FILE_MESSAGE }]);
    }
    const hash = createHash('sha256');
    for await (const chunk of part.file) hash.update(chunk as Buffer);
    if (part.file.truncated) throw new AppError(413, DOCUMENT_TOO_LARGE_MESSAGE);
    digest = hash.digest('hex');
  }
  if (digest === null) throw badRequest(FILE_REQUIRED, [{ path: 'file', message: FILE_REQUIRED }]);
  return digest;
}
