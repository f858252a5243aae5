import { eq } from 'drizzle-orm';
import type { CustodyEvent, CustodyState } from '../../common/domain/custody';
import {
  type CustodyEventDetails,
  custodyEvents,
  labSettings,
  samples,
  storageLocations,
} from '../db/schema';
import { expertName } from '../modules/custody/custody-events';
import type { DemoSeedContext } from './demo-extras';

// The demo lab's items where they really are (docs/product/custody.md): checked in at the desk a
// day after they were sent, shelved in the vault or the silver store, handed to their analyst and
// put back, and the oldest finished ones sent home by courier or collected. One item has not
// arrived yet; one finished item waits on its shelf past the lab's five days and is flagged.

const DAY = 24 * 3600 * 1000;

const LOCATIONS = {
  vault: { name: 'Vault A', description: 'Fire-rated safe, basement: jewellery, watches, coins, books' },
  silver: { name: 'Shelf 3, silver and ceramics', description: 'Locked cabinet in the workroom' },
  pictures: { name: 'Picture store', description: 'Racks for framed works, climate controlled' },
  studio: { name: 'Photo studio', description: 'Second floor; items stay with their analyst here' },
  strongroom: { name: 'Old strongroom', description: 'Closed after the move to the basement vault' },
} as const;
type Place = keyof typeof LOCATIONS;

type Step = {
  event: CustodyEvent;
  state: CustodyState;
  place?: Place;
  details?: CustodyEventDetails;
  note?: string;
};

/** What happened to each demo item after its arrival, in order (by item name). */
const STORIES: Record<string, { pieces: number; packaging: string; condition: string; steps: Step[] }> = {
  'Morgan Silver Dollar 1893-S': {
    pieces: 1,
    packaging: 'Coin flip in a padded envelope, inside a small box',
    condition: 'In good order, light wear on the high points as described',
    steps: [
      { event: 'to-expert', state: 'with-expert' },
      { event: 'to-storage', state: 'in-storage', place: 'vault' },
      {
        event: 'returned',
        state: 'returned',
        details: {
          carrier: 'FedEx Priority Overnight',
          trackingNumber: '7749 1234 5678',
          insuredValueMinor: 1_800_000,
          insuredCurrency: 'USD',
        },
      },
    ],
  },
  'Victorian Silver Tea Service': {
    pieces: 4,
    packaging: 'Wooden crate, each piece wrapped in acid-free tissue',
    condition: 'In good order; the teapot lid hinge is slightly loose, as the owner said',
    steps: [
      { event: 'to-expert', state: 'with-expert' },
      {
        event: 'to-storage',
        state: 'in-storage',
        place: 'silver',
        note: 'Awaiting the owner’s courier booking',
      },
    ],
  },
  'Patek Philippe Pocket Watch': {
    pieces: 1,
    packaging: 'Original fitted case in a double box',
    condition: 'In good order, running; crystal without chips',
    steps: [
      { event: 'to-expert', state: 'with-expert', place: 'studio' },
      { event: 'to-storage', state: 'in-storage', place: 'vault' },
      { event: 'collected', state: 'collected', details: { collectedBy: 'Sofia Romano', idChecked: true } },
    ],
  },
  'First Edition Moby-Dick': {
    pieces: 1,
    packaging: 'Archival clamshell box, double boxed',
    condition: 'In good order; spine ends rubbed as described',
    steps: [
      { event: 'to-expert', state: 'with-expert' },
      { event: 'to-storage', state: 'in-storage', place: 'vault' },
      {
        event: 'returned',
        state: 'returned',
        details: {
          carrier: 'UPS Express Saver',
          trackingNumber: '1Z 999 AA1 01 2345 6784',
          insuredValueMinor: 4_500_000,
          insuredCurrency: 'USD',
        },
      },
    ],
  },
  'Hudson River School Landscape': {
    pieces: 1,
    packaging: 'Travel frame in a fine-art crate',
    condition: 'In good order; a small old retouch lower left, frame corners rubbed',
    steps: [
      { event: 'to-expert', state: 'with-expert', place: 'studio' },
      { event: 'to-storage', state: 'in-storage', place: 'pictures' },
    ],
  },
  'Blue and White Vase, Ming Style': {
    pieces: 1,
    packaging: 'Double box with foam inserts',
    condition: 'In good order, no new damage; old rim chip as photographed by the owner',
    steps: [
      { event: 'to-expert', state: 'with-expert' },
      { event: 'to-storage', state: 'in-storage', place: 'silver' },
    ],
  },
  'Art Deco Diamond Brooch': {
    pieces: 1,
    packaging: 'Jewellery box in a padded insured envelope',
    condition: 'In good order, all stones present',
    steps: [{ event: 'to-expert', state: 'with-expert', place: 'studio' }],
  },
  'French Empire Mantel Clock': {
    pieces: 1,
    packaging: 'Crate with the pendulum and key packed apart',
    condition: 'In good order; pendulum and key present; not wound for transport',
    steps: [],
  },
  'Pair of Georgian Silver Candlesticks': {
    pieces: 2,
    packaging: 'Two boxes in one carton, nozzles wrapped separately',
    condition: 'In good order; one nozzle a little bent, as the owner noted',
    steps: [],
  },
};

/** Where each item is shelved on arrival; absent: it stays at the intake desk. */
const FIRST_PLACE: Record<string, Place> = {
  'Morgan Silver Dollar 1893-S': 'vault',
  'Victorian Silver Tea Service': 'silver',
  'Patek Philippe Pocket Watch': 'vault',
  'First Edition Moby-Dick': 'vault',
  'Hudson River School Landscape': 'pictures',
  'Blue and White Vase, Ming Style': 'silver',
  'Art Deco Diamond Brooch': 'vault',
  'Pair of Georgian Silver Candlesticks': 'vault',
};

/**
 * Locations, and each item's custody history, written straight into the tables: no mails, and no
 * audit events (the audit trail stamps each event with the time it is written, so it cannot carry
 * a history that happened before the seed ran; it starts with the first real action).
 */
export async function seedDemoCustody({ db, samples: created, staff }: DemoSeedContext): Promise<void> {
  const places = {} as Record<Place, { id: number; name: string }>;
  for (const [key, value] of Object.entries(LOCATIONS) as [Place, (typeof LOCATIONS)[Place]][]) {
    const [row] = await db
      .insert(storageLocations)
      .values({
        ...value,
        createdAt: new Date(Date.now() - 400 * DAY),
        ...(key === 'strongroom' ? { retiredAt: new Date(Date.now() - 120 * DAY) } : {}),
      })
      .returning();
    if (row) places[key] = { id: row.id, name: row.name };
  }
  // The lab sends finished items back within five days: the inventory flags what waits longer.
  await db.update(labSettings).set({ flagHeldDaysAfterCompletion: 5 });

  const desk = staff[0];
  const now = Date.now();
  for (const sample of created) {
    const story = STORIES[sample.itemName];
    if (!story) continue; // not arrived yet
    const handler = sample.assignedStaffId ?? desk?.id ?? null;
    // Each hand-over names the expert who took the item: the sample's analyst.
    const expert = staff.find((m) => m.id === handler);
    const holder = expert ? { expertId: expert.id, expertName: expertName(expert) } : null;
    // Checked in the day after it was sent (couriers deliver overnight), in the morning.
    const receivedAt = new Date(sample.submissionDate.getTime() + 0.8 * DAY);
    const first = FIRST_PLACE[sample.itemName];
    const events: {
      event: CustodyEvent;
      state: CustodyState;
      at: Date;
      place: Place | undefined;
      by: number | null;
      details: CustodyEventDetails;
      note: string | null;
    }[] = [
      {
        event: 'received',
        state: first ? 'in-storage' : 'received',
        at: receivedAt,
        place: first,
        by: desk?.id ?? null,
        details: { itemCount: story.pieces, packaging: story.packaging, conditionOnArrival: story.condition },
        note: null,
      },
    ];
    // The later steps spread between the arrival and a few hours ago.
    const span = now - 0.2 * DAY - receivedAt.getTime();
    story.steps.forEach((step, n) => {
      events.push({
        event: step.event,
        state: step.state,
        at: new Date(receivedAt.getTime() + (span * (n + 1)) / (story.steps.length + 0.5)),
        place: step.state === 'returned' || step.state === 'collected' ? undefined : step.place,
        by: step.event === 'to-expert' ? handler : (desk?.id ?? null),
        details: step.event === 'to-expert' && holder ? { ...step.details, ...holder } : (step.details ?? {}),
        note: step.note ?? null,
      });
    });
    for (const e of events)
      await db.insert(custodyEvents).values({
        sampleId: sample.id,
        event: e.event,
        state: e.state,
        locationId: e.place ? places[e.place].id : null,
        at: e.at,
        byUserId: e.by,
        note: e.note,
        details: e.details,
        createdAt: e.at,
      });
    const last = events[events.length - 1];
    if (!last) continue;
    // Moved with the expert keeps the expert's place; a hand-over without one has none.
    await db
      .update(samples)
      .set({
        custodyState: last.state,
        custodyLocationId: last.place ? places[last.place].id : null,
        custodyLocationName: last.place ? places[last.place].name : null,
        custodySince: last.at,
      })
      .where(eq(samples.id, sample.id));
  }
}
