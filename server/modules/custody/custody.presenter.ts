import type { CustodyEventEntry, StorageLocation } from '../../../common/contracts/custody';
import { type CustodyEvent, normalizeCustodyState } from '../../../common/domain/custody';
import { minorToNumber } from '../../../common/domain/money';
import { isoDate } from '../../time';
import type { CustodyEventRow, LocationRow } from './custody.queries';

// What leaves the server about custody (docs/product/custody.md). The lab's internal whereabouts
// (which shelf, which safe) and its notes are the lab's: the owner reads the state and its date,
// and of the history only arrival, return and collection.

export function presentLocation(row: LocationRow & { itemCount: number }): StorageLocation {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    retired: row.retiredAt !== null,
    retiredAt: row.retiredAt ? isoDate(row.retiredAt) : null,
    itemCount: Number(row.itemCount),
    createdAt: isoDate(row.createdAt),
  };
}

/** One custody event; `labView` false leaves out the location, the note and who handled it. */
export function presentCustodyEvent(row: CustodyEventRow, labView: boolean): CustodyEventEntry {
  const d = row.details ?? {};
  const currency = d.insuredCurrency ?? null;
  return {
    id: row.id,
    event: row.event as CustodyEvent,
    state: normalizeCustodyState(row.state),
    at: isoDate(row.at),
    location:
      labView && row.locationId !== null ? { id: row.locationId, name: row.locationName ?? '' } : null,
    by:
      labView && row.byUserId !== null
        ? { id: row.byUserId, firstName: row.byFirstName, lastName: row.byLastName }
        : null,
    expert:
      labView && d.expertId !== undefined ? { id: d.expertId, name: d.expertName ?? 'Lab member' } : null,
    note: labView ? row.note : null,
    itemCount: d.itemCount ?? null,
    packaging: d.packaging ?? null,
    conditionOnArrival: d.conditionOnArrival ?? null,
    photoIds: row.photoIds ?? [],
    carrier: d.carrier ?? null,
    trackingNumber: d.trackingNumber ?? null,
    insuredValue:
      d.insuredValueMinor !== undefined && currency ? minorToNumber(d.insuredValueMinor, currency) : null,
    insuredCurrency: currency,
    collectedBy: d.collectedBy ?? null,
    idChecked: d.idChecked ?? null,
  };
}
