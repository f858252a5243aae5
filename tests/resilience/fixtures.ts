import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const PHOTO_JPEG = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'photo.jpg'));

export const SAMPLE_FIELDS: Record<string, string> = {
  submitterName: 'Ada Lovelace',
  submitterEmail: 'ada@example.com',
  submitterPhone: '+44 20 7946 0000',
  submitterCountry: 'united-kingdom',
  isPersonalSubmission: 'true',
  itemName: 'Georgian Silver Teapot',
  category: 'furniture-decorative',
  estimatedAge: 'c. 1790',
  description: 'Sterling silver teapot with a wooden handle.',
  dimensions: '20 x 12 x 15 cm',
  weight: '650 g',
  materials: 'Silver, fruitwood',
  expertValuation: 'true',
  authenticityCheck: 'false',
  conditionAssessment: 'true',
  provenanceResearch: 'false',
  purposeOfValuation: 'insurance',
  urgencyLevel: 'urgent',
  estimatedValueRange: '1000-5000',
  specialInstructions: 'Handle with gloves.',
};

export function sampleForm(fields: Record<string, string> = SAMPLE_FIELDS, photo = PHOTO_JPEG): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('photos', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'photo.jpg');
  return form;
}

/** A raw multipart body (fields, then one photo part of `photoBytes`) for hand-paced sending. */
export function rawMultipart(photoBytes: Buffer, fields: Record<string, string> = SAMPLE_FIELDS) {
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
