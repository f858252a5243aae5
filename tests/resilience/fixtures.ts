import { DOCUMENT_PDF, PHOTO_JPEG, SUBMISSION_FIELDS } from '../support/factories';

// Hand-paced multipart bodies for the crash tests; ordinary submissions use factories' submissionForm.

/**
 * A raw multipart body for hand-paced sending: the fields and one small photo, then one document part
 * whose `documentBytes` the test sends itself. A document is used because documents stream to a
 * temporary file as they arrive; photos are read whole first, to refuse one that declares too many
 * pixels before anything is stored.
 */
export function rawMultipart(
  documentBytes: Buffer,
  fields: Readonly<Record<string, string>> = SUBMISSION_FIELDS,
) {
  const boundary = `----vlboundary${Date.now()}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(
    Buffer.from(
      `--${boundary}\r\ncontent-disposition: form-data; name="photos"; filename="photo.jpg"\r\ncontent-type: image/jpeg\r\n\r\n`,
    ),
    PHOTO_JPEG,
    Buffer.from(
      `\r\n--${boundary}\r\ncontent-disposition: form-data; name="documents"; filename="big.pdf"\r\ncontent-type: application/pdf\r\n\r\n`,
    ),
  );
  const head = Buffer.concat(parts);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { contentType: `multipart/form-data; boundary=${boundary}`, head, photo: documentBytes, tail };
}

/** A PDF-headed document of `size` bytes (valid magic bytes, filler after). */
export function bigPdf(size: number): Buffer {
  const buf = Buffer.alloc(size, 0x20);
  DOCUMENT_PDF.copy(buf, 0, 0, Math.min(DOCUMENT_PDF.length, size));
  return buf;
}
