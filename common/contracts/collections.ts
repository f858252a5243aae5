import { z } from 'zod';
import { PURPOSES } from '../domain/samples';
import { custodySummary } from './custody';
import { photoCopyFields } from './photos';
import { SAMPLE_SUBMISSION_FIELD_NAMES } from './samples';

// Collections (docs/product/collections.md): a customer's named group of samples with a purpose,
// its items with their status, custody and values as far as reports are issued, and its progress.

export const MAX_COLLECTION_NAME = 255;
/** The most sample ids one "add to collection" call takes. */
export const MAX_SAMPLES_PER_ADD = 500;

export const COLLECTION_MESSAGES = {
  nameRequired: 'Collection name is required',
  nameTooLong: `Collection name must be at most ${MAX_COLLECTION_NAME} characters`,
  purposeRequired: 'Please choose a purpose',
  samplesRequired: 'Choose at least one sample',
  tooManySamples: `At most ${MAX_SAMPLES_PER_ADD} samples can be added at once`,
  notFound: 'Collection not found',
  sampleNotFound: 'Sample not found',
  /** A sample already in another collection (a sample belongs to at most one). */
  inOtherCollection: (displayId: string, name: string) =>
    `${displayId} is already in the collection "${name}"`,
} as const;
const M = COLLECTION_MESSAGES;

const purposeValues = PURPOSES.map((p) => p.value) as [string, ...string[]];

/** POST /api/collections */
export const createCollectionBody = z.object({
  name: z
    .string({ error: M.nameRequired })
    .trim()
    .min(1, M.nameRequired)
    .max(MAX_COLLECTION_NAME, M.nameTooLong),
  purpose: z.string({ error: M.purposeRequired }).refine((v) => purposeValues.includes(v), M.purposeRequired),
});
export type CreateCollectionBody = z.input<typeof createCollectionBody>;

/** POST /api/collections/{id}/samples */
export const addCollectionSamplesBody = z.object({
  sampleIds: z
    .array(z.number().int().positive().max(2_147_483_647), { error: M.samplesRequired })
    .min(1, M.samplesRequired)
    .max(MAX_SAMPLES_PER_ADD, M.tooManySamples)
    .transform((ids) => [...new Set(ids)]),
});
export type AddCollectionSamplesBody = z.input<typeof addCollectionSamplesBody>;

/** The submission's optional "Add to collection…" field, as multipart text. */
export const submissionCollectionId = z.coerce.number().int().positive().max(2_147_483_647);

/** Items with an issued (not withdrawn) report, of all items. */
export const collectionProgress = z.object({ total: z.number().int(), reported: z.number().int() });
export type CollectionProgress = z.infer<typeof collectionProgress>;

/** A row of GET /api/collections. */
export const collectionListItem = z.object({
  id: z.number().int(),
  name: z.string(),
  purpose: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  progress: collectionProgress,
});
export type CollectionListItem = z.infer<typeof collectionListItem>;

/** An issued report's value as its owner (and the lab) sees it, in major units. */
export const collectionItemValue = z.object({
  low: z.number().nullable(),
  high: z.number(),
  currency: z.string(),
  /** One of the report's value types (common/domain/valuation.ts). */
  valueType: z.string(),
  effectiveDate: z.string(),
});
export type CollectionItemValue = z.infer<typeof collectionItemValue>;

/** One item of a collection (GET /api/collections/{id}). */
export const collectionItem = z.object({
  id: z.number().int(),
  /** VAL-0001 */
  displayId: z.string(),
  itemName: z.string(),
  category: z.string(),
  status: z.string(),
  submissionDate: z.string(),
  custody: custodySummary,
  /** The issued report's code; null until a report is public, and after it is withdrawn. */
  reportCode: z.string().nullable(),
  reportIssuedAt: z.string().nullable(),
  reportRevoked: z.boolean(),
  /** The issued report's value; null without an issued report or when the report states none. */
  value: collectionItemValue.nullable(),
  thumbnailUrl: photoCopyFields.shape.thumbnailUrl,
  photoProcessing: z.boolean(),
});
export type CollectionItem = z.infer<typeof collectionItem>;

/** GET /api/collections/{id} */
export const collectionDetail = collectionListItem.extend({
  owner: z.object({
    id: z.number().int(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
  }),
  items: z.array(collectionItem),
});
export type CollectionDetail = z.infer<typeof collectionDetail>;

// ---- Bulk intake: POST /api/collections/{id}/import (docs/product/collections.md) ----------------

/** The most items one CSV may hold. */
export const MAX_IMPORT_ROWS = 1000;
/** The most a CSV file may weigh. */
export const MAX_IMPORT_CSV_BYTES = 2 * 1024 * 1024;
/** The most photos one import may carry (each at most the sample photo limit). */
export const MAX_IMPORT_PHOTOS = 2000;
/** The most a whole import request may weigh (the CSV and every photo). */
export const MAX_IMPORT_BYTES = 1024 * 1024 * 1024;
/** What separates the photo file names in the CSV's `photos` column. */
export const IMPORT_PHOTO_SEPARATOR = ';';

export const IMPORT_MESSAGES = {
  csvMissing: 'Choose a CSV file',
  csvType: 'The file must be a CSV file (text/csv)',
  csvTooLarge: `The CSV file must be ${MAX_IMPORT_CSV_BYTES / (1024 * 1024)} MB or smaller`,
  tooManyRows: `A CSV can hold at most ${MAX_IMPORT_ROWS.toLocaleString('en-GB')} items: split it into several imports`,
  tooManyPhotos: `An import can carry at most ${MAX_IMPORT_PHOTOS.toLocaleString('en-GB')} photos: split it into several imports`,
  tooLarge: `An import can weigh at most ${MAX_IMPORT_BYTES / (1024 * 1024 * 1024)} GB: split it into several imports`,
  noRows: 'The CSV has no items: the first line names the columns, each further line is one item',
  unreadable: (reason: string) => `The CSV file could not be read: ${reason}`,
  unknownColumn: (column: string) => `Unknown column "${column}"`,
  noItemColumn: 'The CSV needs at least the column "itemName"',
  photoMissing: (name: string) => `Photo "${name}" was not uploaded with the CSV`,
  photoTwice: (name: string, row: number) => `Photo "${name}" is already named in row ${row}`,
  photoNotNamed: (name: string) => `Photo "${name}" is not named in any row`,
  photoUploadedTwice: (name: string) => `Two photos are named "${name}"`,
  tooManyRowPhotos: 'At most 10 photos per item',
  refused: (count: number) =>
    `Nothing was imported: the CSV has ${count} ${count === 1 ? 'problem' : 'problems'}. Fix ${count === 1 ? 'it' : 'them'} and import again`,
} as const;

/** One problem of an import: its row as a spreadsheet numbers it (row 1 holds the column names; null: the upload as a whole), and the field. */
export const importProblem = z.object({
  row: z.number().int().nullable(),
  field: z.string(),
  /** `rows.3.itemName`: row and field in one, as the error format's `path`. */
  path: z.string(),
  message: z.string(),
});
export type ImportProblem = z.infer<typeof importProblem>;

/** One item of the CSV as read. */
export const importRow = z.object({
  row: z.number().int(),
  fields: z.record(z.string(), z.string()),
  photos: z.array(z.string()),
});
export type ImportRow = z.infer<typeof importRow>;

/** `?dryRun=1`: the CSV as read and every problem; nothing is stored. */
export const importPreview = z.object({
  columns: z.array(z.string()),
  rows: z.array(importRow),
  errors: z.array(importProblem),
  valid: z.boolean(),
});
export type ImportPreview = z.infer<typeof importPreview>;

/** A refused import: 400 with every row's problems. */
export const importRefused = z.object({ message: z.string(), errors: z.array(importProblem).optional() });
export type ImportRefused = z.infer<typeof importRefused>;

/** An import done: the samples made, in row order, and the collection as it is now. */
export const importResult = z.object({
  created: z.number().int(),
  sampleIds: z.array(z.number().int()),
  collection: collectionDetail,
});
export type ImportResult = z.infer<typeof importResult>;

export const importQuery = z.object({
  dryRun: z.enum(['0', '1', 'true', 'false']).optional(),
});

/** The columns a CSV may have: the submission's fields (its contract), then `photos`. */
export const IMPORT_COLUMNS = [
  ...SAMPLE_SUBMISSION_FIELD_NAMES.filter((f) => f !== 'status'),
  'photos',
] as readonly string[];

/** The template's example item (docs/product/collections.md). */
export const IMPORT_TEMPLATE_EXAMPLE: Record<string, string> = {
  submitterName: 'Margaret Hale',
  submitterEmail: 'margaret.hale@example.com',
  submitterPhone: '+44 161 496 0000',
  submitterCountry: 'united-kingdom',
  isPersonalSubmission: 'true',
  itemName: 'George III silver teapot',
  category: 'furniture-decorative',
  estimatedAge: 'c. 1790',
  description: 'Oval silver teapot with a fruitwood handle, hallmarked London.',
  dimensions: '16 x 28 x 12 cm',
  weight: '620 g',
  materials: 'Sterling silver, fruitwood',
  expertValuation: 'true',
  authenticityCheck: 'false',
  conditionAssessment: 'true',
  provenanceResearch: 'false',
  purposeOfValuation: 'estate-planning',
  urgencyLevel: 'standard',
  estimatedValueRange: '1000-5000',
  photos: 'teapot-front.jpg;teapot-marks.jpg',
};

/** One CSV cell: quoted when it holds a comma, a quote or a line break. */
export function csvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** The "Download template CSV": the column names and the example item. */
export function importTemplateCsv(): string {
  const lines = [IMPORT_COLUMNS, IMPORT_COLUMNS.map((c) => IMPORT_TEMPLATE_EXAMPLE[c] ?? '')];
  return `${lines.map((cells) => cells.map(csvCell).join(',')).join('\r\n')}\r\n`;
}
