import { z } from 'zod';
import { PURPOSES } from '../domain/samples';
import { custodySummary } from './custody';
import { photoCopyFields } from './photos';

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
