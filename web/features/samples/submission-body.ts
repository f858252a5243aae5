import { MAX_SAMPLE_FILE_BYTES } from '../../../common/domain/uploads';
import type { SampleFormValues } from './draft';

// The multipart body of POST /api/samples and the file limits the form applies before sending.

export const MAX_FILE_MB = MAX_SAMPLE_FILE_BYTES / (1024 * 1024);

/** What a personal submission leaves out: the representative fields hidden with it. */
const REPRESENTATIVE_FIELDS: readonly (keyof SampleFormValues)[] = [
  'representativeName',
  'representativeEmail',
  'relationshipToOwner',
];

/** Every form field as text (booleans as 'true'/'false'), then repeated 'photos' and 'documents'. */
export function submissionBody(values: SampleFormValues, photos: File[], documents: File[]): FormData {
  const body = new FormData();
  for (const [field, value] of Object.entries(values)) {
    if (values.isPersonalSubmission && REPRESENTATIVE_FIELDS.some((f) => f === field)) continue;
    body.append(field, String(value));
  }
  for (const f of photos) body.append('photos', f, f.name);
  for (const f of documents) body.append('documents', f, f.name);
  return body;
}

/** Keeps at most `max` files within the size limit; returns the kept list and a message for the rest. */
export function addFiles(
  current: File[],
  added: File[],
  max: number,
): { files: File[]; error: string | null } {
  const tooBig = added.filter((f) => f.size > MAX_SAMPLE_FILE_BYTES);
  const fitting = added.filter((f) => f.size <= MAX_SAMPLE_FILE_BYTES);
  const room = Math.max(0, max - current.length);
  const files = [...current, ...fitting.slice(0, room)];
  if (tooBig.length)
    return {
      files,
      error: `Each file must be ${MAX_FILE_MB}MB or smaller: ${tooBig.map((f) => f.name).join(', ')}`,
    };
  if (fitting.length > room) return { files, error: `You can upload at most ${max} files.` };
  return { files, error: null };
}
