import { PHOTO_JPEG, SUBMISSION_FIELDS } from '../support/factories';

// Hand-paced multipart bodies for the crash tests; ordinary submissions use factories' submissionForm.

/** A raw multipart body (fields, then one photo part of `photoBytes`) for hand-paced sending. */
export function rawMultipart(
  photoBytes: Buffer,
  fields: Readonly<Record<string, string>> = SUBMISSION_FIELDS,
) {
  const boundary = `----vlboundary${Date.now()}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(
    Buffer.from(
      `--${boundary}\r\ncontent-disposition: form-data; name="photos"; filename="big.jpg"\r\ncontent-type: image/jpeg\r\n\r\n`,
    ),
  );
  const head = Buffer.concat(parts);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { contentType: `multipart/form-data; boundary=${boundary}`, head, photo: photoBytes, tail };
}

/** A JPEG-headed photo of `size` bytes (valid magic bytes, filler after). */
export function bigJpeg(size: number): Buffer {
  const buf = Buffer.alloc(size, 0x20);
  PHOTO_JPEG.copy(buf, 0, 0, Math.min(PHOTO_JPEG.length, size));
  return buf;
}
