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

/** A chosen file the server would refuse for its size: it stays listed, marked, and blocks sending. */
export const isOversized = (f: File) => f.size > MAX_SAMPLE_FILE_BYTES;

/** The field's message while any listed file is too large (null when none is). */
export function oversizedError(files: File[]): string | null {
  const tooBig = files.filter(isOversized);
  return tooBig.length
    ? `Each file must be ${MAX_FILE_MB}MB or smaller: ${tooBig.map((f) => f.name).join(', ')}. Remove it to continue.`
    : null;
}

/**
 * Adds chosen files up to `max`. A file over the size limit is kept in the list (marked, with the
 * field's error) rather than dropped, so the form can never be sent without a photo the person
 * thinks is attached: the same behaviour as the profile and logo pickers.
 */
export function addFiles(
  current: File[],
  added: File[],
  max: number,
): { files: File[]; error: string | null } {
  const room = Math.max(0, max - current.length);
  const files = [...current, ...added.slice(0, room)];
  const tooBig = oversizedError(files);
  if (tooBig) return { files, error: tooBig };
  if (added.length > room) return { files, error: `You can upload at most ${max} files.` };
  return { files, error: null };
}
