import { z } from 'zod';
import { CUSTODY_EVENTS, CUSTODY_MOVES, CUSTODY_STATES, RETURN_METHODS } from '../domain/custody';
import { SAMPLE_STATUSES } from '../domain/samples';
import { amountInput, checkAmount, currencyCode, CURRENCY_INVALID } from './lab';

// Custody of the physical item (docs/product/custody.md): the summary every sample answer carries,
// the intake, moves, returns, storage locations, the custody history and the inventory.

export const MAX_ITEM_COUNT = 999;
export const MAX_CUSTODY_NOTE = 1000;
export const MAX_LOCATION_NAME = 100;
export const MAX_LOCATION_DESCRIPTION = 500;

export const CUSTODY_MESSAGES = {
  receivedAt: 'Enter the date and time the item arrived',
  receivedAtFuture: 'The arrival cannot be in the future',
  itemCount: `Enter how many pieces arrived (1 to ${MAX_ITEM_COUNT})`,
  packaging: 'Describe the packaging',
  condition: 'Describe the condition on arrival',
  location: 'Choose a location',
  expert: 'Choose an active staff member or admin',
  expertOnlyForHandOver: 'An expert is named only when handing the item to an expert',
  carrier: 'Enter the carrier',
  trackingNumber: 'Enter the tracking number',
  collectedBy: 'Enter the name of the person who collected the item',
  idChecked: 'Confirm that you checked their identity document',
  locationName: 'Enter the location name',
  note: `At most ${MAX_CUSTODY_NOTE} characters`,
  // Refusals of the custody calls (409 unless said otherwise).
  alreadyReceived: 'This item has already been checked in',
  notArrived: 'This item has not arrived at the lab',
  alreadyReturned: 'This item has already left the lab',
  locationRetired: 'This location is retired and takes no new items',
  locationUnknown: 'This location does not exist',
  locationTaken: 'A location with this name already exists',
  locationNotFound: 'Location not found',
} as const;
const M = CUSTODY_MESSAGES;

/** Clock difference allowed between the desk's computer and the server. */
const FUTURE_SLACK_MS = 5 * 60_000;

const isoInstant = z.union([z.iso.datetime({ offset: true }), z.iso.date()]);
const isInstant = (v: string) => isoInstant.safeParse(v).success;

const requiredText = (message: string, max = 255) =>
  z.string({ message }).trim().min(1, message).max(max, `At most ${max} characters`);
const optionalText = (max: number, message = `At most ${max} characters`) =>
  z
    .string()
    .trim()
    .max(max, message)
    .nullish()
    .transform((v) => (v ? v : null));

const locationIdField = z
  .number({ message: M.location })
  .int(M.location)
  .positive(M.location)
  .max(2_147_483_647, M.location);

/** The custody summary every sample answer carries. `location` is null for the owner's eyes. */
export const custodySummary = z.object({
  state: z.enum(CUSTODY_STATES),
  location: z.object({ id: z.number(), name: z.string() }).nullable(),
  since: z.string(),
});
export type CustodySummary = z.infer<typeof custodySummary>;

/** The 'intake' JSON part of POST /api/staff/samples/{id}/intake; the desk's dialog validates with it. */
export const intakeRequest = z.object({
  receivedAt: z
    .string({ message: M.receivedAt })
    .trim()
    .refine(isInstant, M.receivedAt)
    .refine(
      (v) => !isInstant(v) || new Date(v).getTime() <= Date.now() + FUTURE_SLACK_MS,
      M.receivedAtFuture,
    ),
  itemCount: z
    .number({ message: M.itemCount })
    .int(M.itemCount)
    .min(1, M.itemCount)
    .max(MAX_ITEM_COUNT, M.itemCount),
  packaging: requiredText(M.packaging),
  conditionOnArrival: requiredText(M.condition, MAX_CUSTODY_NOTE),
  /** Where the item goes: it is then in storage. Left out, it stays at the desk ('received'). */
  locationId: locationIdField.nullish().transform((v) => v ?? null),
  note: optionalText(MAX_CUSTODY_NOTE, M.note),
});
export type IntakeRequest = z.input<typeof intakeRequest>;

/** POST /api/staff/samples/{id}/custody: a move inside the lab. */
export const custodyMoveRequest = z
  .object({
    event: z.enum(CUSTODY_MOVES, { message: 'event must be moved, to-expert or to-storage' }),
    locationId: locationIdField.nullish().transform((v) => v ?? null),
    /** A hand-over's expert; absent: the sample's assigned expert, else the person recording it. */
    expertId: z
      .number({ message: M.expert })
      .int(M.expert)
      .positive(M.expert)
      .max(2_147_483_647, M.expert)
      .nullish()
      .transform((v) => v ?? null),
    note: optionalText(MAX_CUSTODY_NOTE, M.note),
  })
  .superRefine((v, ctx) => {
    if (v.event !== 'to-expert' && v.locationId === null)
      ctx.addIssue({ code: 'custom', path: ['locationId'], message: M.location });
    if (v.event !== 'to-expert' && v.expertId !== null)
      ctx.addIssue({ code: 'custom', path: ['expertId'], message: M.expertOnlyForHandOver });
  });
export type CustodyMoveRequest = z.input<typeof custodyMoveRequest>;

/** POST /api/staff/samples/{id}/return: by courier, or collected in person. */
export const returnRequest = z
  .object({
    method: z.enum(RETURN_METHODS, { message: 'method must be courier or collected' }),
    carrier: optionalText(100),
    trackingNumber: optionalText(100),
    insuredValue: amountInput.nullish(),
    currency: currencyCode.nullish(),
    collectedBy: optionalText(255),
    idChecked: z.boolean({ message: M.idChecked }).nullish(),
    note: optionalText(MAX_CUSTODY_NOTE, M.note),
  })
  .superRefine((v, ctx) => {
    if (v.method === 'courier') {
      if (!v.carrier) ctx.addIssue({ code: 'custom', path: ['carrier'], message: M.carrier });
      if (!v.trackingNumber)
        ctx.addIssue({ code: 'custom', path: ['trackingNumber'], message: M.trackingNumber });
      const insured = v.insuredValue;
      if (insured !== null && insured !== undefined && insured !== '') {
        if (!v.currency) ctx.addIssue({ code: 'custom', path: ['currency'], message: CURRENCY_INVALID });
        else checkAmount(ctx, insured, v.currency, ['insuredValue']);
      }
    } else {
      if (!v.collectedBy) ctx.addIssue({ code: 'custom', path: ['collectedBy'], message: M.collectedBy });
      if (v.idChecked !== true) ctx.addIssue({ code: 'custom', path: ['idChecked'], message: M.idChecked });
    }
  });
export type ReturnRequest = z.input<typeof returnRequest>;

// ---- Locations ---------------------------------------------------------------------------------

export const locationSchema = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string().nullable(),
  retired: z.boolean(),
  retiredAt: z.string().nullable(),
  /** Items in the lab at this location now. */
  itemCount: z.number(),
  createdAt: z.string(),
});
export type StorageLocation = z.infer<typeof locationSchema>;

const locationName = requiredText(M.locationName, MAX_LOCATION_NAME);

/** POST /api/admin/locations. */
export const createLocationRequest = z.object({
  name: locationName,
  description: optionalText(MAX_LOCATION_DESCRIPTION),
});
export type CreateLocationRequest = z.input<typeof createLocationRequest>;

/** PATCH /api/admin/locations/{id}: rename, describe, retire (or bring back). */
export const updateLocationRequest = z.object({
  name: locationName.optional(),
  description: optionalText(MAX_LOCATION_DESCRIPTION).optional(),
  retired: z.boolean({ message: 'retired must be true or false' }).optional(),
});
export type UpdateLocationRequest = z.input<typeof updateLocationRequest>;

/** GET /api/staff/experts: who an item can be handed to (active staff and admins). */
export const expertSchema = z.object({ id: z.number(), name: z.string() });
export type Expert = z.infer<typeof expertSchema>;
export const expertList = z.array(expertSchema);

// ---- History ----------------------------------------------------------------------------------

export const custodyEventSchema = z.object({
  id: z.number(),
  event: z.enum(CUSTODY_EVENTS),
  state: z.enum(CUSTODY_STATES),
  at: z.string(),
  /** Null in the owner's view. */
  location: z.object({ id: z.number(), name: z.string() }).nullable(),
  by: z
    .object({ id: z.number(), firstName: z.string().nullable(), lastName: z.string().nullable() })
    .nullable(),
  /** A hand-over's expert (their name as it was then); null in the owner's view and for other events. */
  expert: z.object({ id: z.number(), name: z.string() }).nullable(),
  /** The lab's own note; null in the owner's view. */
  note: z.string().nullable(),
  itemCount: z.number().nullable(),
  packaging: z.string().nullable(),
  conditionOnArrival: z.string().nullable(),
  /** The arrival photos taken at this intake (ids of the sample's files). */
  photoIds: z.array(z.number()),
  carrier: z.string().nullable(),
  trackingNumber: z.string().nullable(),
  insuredValue: z.number().nullable(),
  insuredCurrency: z.string().nullable(),
  collectedBy: z.string().nullable(),
  idChecked: z.boolean().nullable(),
});
export type CustodyEventEntry = z.infer<typeof custodyEventSchema>;
export const custodyHistory = z.array(custodyEventSchema);

// ---- Inventory --------------------------------------------------------------------------------

export const inventoryItem = z.object({
  id: z.number(),
  itemName: z.string(),
  ownerName: z.string(),
  status: z.enum(SAMPLE_STATUSES),
  custody: custodySummary,
  /** Whole days since the item came to its current place and state. */
  daysHere: z.number(),
  /** When its work was completed, if it was. */
  completedAt: z.string().nullable(),
  /** Still in the lab more than the lab's number of days after completion. */
  flagged: z.boolean(),
});
export type InventoryItem = z.infer<typeof inventoryItem>;

/** GET /api/staff/inventory. */
export const inventoryResponse = z.object({
  flagHeldDaysAfterCompletion: z.number(),
  items: z.array(inventoryItem),
});
export type Inventory = z.infer<typeof inventoryResponse>;
