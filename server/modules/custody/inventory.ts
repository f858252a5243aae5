import type { Inventory } from '../../../common/contracts/custody';
import { DEFAULT_FLAG_HELD_DAYS } from '../../../common/domain/custody';
import { normalizeStatus, personFullName } from '../../../common/domain/samples';
import type { DbOrTx } from '../../db/client';
import { isoDate } from '../../time';
import { readLabSettings } from '../../db/lab-settings';
import { presentCustody } from '../samples/samples.presenter';
import { listInventory } from './custody.queries';

// What is in the lab now (docs/product/custody.md): every item received and not yet returned or
// collected, by location, with how long it has been where it is. An item whose work was completed
// more than the lab's number of days ago and that is still here is flagged: it should go back.

/** Far more than a lab holds at once; the screen says when the list was cut. */
export const INVENTORY_LIMIT = 5000;
const DAY_MS = 86_400_000;

export async function inventoryOf(db: DbOrTx, now: Date): Promise<Inventory> {
  const [settings, rows] = await Promise.all([readLabSettings(db), listInventory(db, INVENTORY_LIMIT)]);
  const flagDays = settings?.flagHeldDaysAfterCompletion ?? DEFAULT_FLAG_HELD_DAYS;
  return {
    flagHeldDaysAfterCompletion: flagDays,
    items: rows.map((r) => {
      const since = r.sample.custodySince ?? r.sample.submissionDate;
      const completedAt = r.completedAt;
      return {
        id: r.sample.id,
        itemName: r.sample.itemName,
        ownerName:
          personFullName({ firstName: r.ownerFirstName, lastName: r.ownerLastName }) || r.submitterName,
        status: normalizeStatus(r.sample.status),
        custody: presentCustody(r.sample, true),
        daysHere: Math.max(0, Math.floor((now.getTime() - since.getTime()) / DAY_MS)),
        completedAt: completedAt ? isoDate(completedAt) : null,
        flagged: completedAt !== null && now.getTime() - completedAt.getTime() > flagDays * DAY_MS,
      };
    }),
  };
}
