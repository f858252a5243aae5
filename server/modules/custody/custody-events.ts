import {
  CUSTODY_MESSAGES as M,
  custodyMoveRequest,
  intakeRequest,
  returnRequest,
} from '../../../common/contracts/custody';
import { type CustodyMove, type CustodyState, isInLab } from '../../../common/domain/custody';
import { formatMoney, parseAmount } from '../../../common/domain/money';
import type { z } from 'zod';
import type { AppDeps } from '../../app-deps';
import { type AuditWho, recordAudit } from '../../audit/audit';
import type { AuditAction } from '../../../common/domain/audit';
import type { DbOrTx } from '../../db/client';
import type { CustodyEventDetails } from '../../db/schema';
import { mailItemArrived, mailItemReturned } from '../../mail/notifications';
import type { AuthUser } from '../../plugins/auth';
import { AppError, badRequest, conflict, fieldErrors, invalidPayload, notFound } from '../../plugins/errors';
import { findUncleanText, invalidText } from '../../plugins/text-guard';
import { removeStoredFiles, type StoredFile } from '../samples/samples.upload';
import { emitWebhookEvent } from '../webhooks/webhook-events';
import { displaySampleId } from '../../../common/domain/samples';
import {
  findExpert,
  findLocation,
  insertArrivalPhotos,
  lockSample,
  recordCustodyEvent,
  type SampleRow,
} from './custody.queries';

// What happens to the physical item (docs/product/custody.md): it is checked in at the intake desk,
// moved between locations and experts, and sent back or collected. Each event, its mail and the
// sample's custody columns are written in one transaction: all of it, or nothing.

export const SAMPLE_NOT_FOUND = 'Sample not found';

type Deps = Pick<AppDeps, 'db' | 'mailer' | 'storage'>;
/** Who acts (their id is the event's `by`) and, for the audit trail, from where. */
type Actor = Pick<AuthUser, 'id'> & { audit: AuditWho };

/** What the audit trail keeps of an item's custody before and after an event. */
const custodyValues = (s: SampleRow) => ({
  custodyState: s.custodyState,
  locationId: s.custodyLocationId,
  location: s.custodyLocationName,
});

/** A location that may take an item now: it exists (else 400 on `locationId`) and is not retired (409). */
async function usableLocation(db: DbOrTx, id: number) {
  const location = await findLocation(db, id);
  if (!location) throw badRequest(M.locationUnknown, [{ path: 'locationId', message: M.locationUnknown }]);
  if (location.retiredAt) throw conflict(M.locationRetired);
  return { id: location.id, name: location.name };
}

/** How the history names an expert: their name, else their e-mail. */
export const expertName = (p: { firstName: string | null; lastName: string | null; email: string }) =>
  [p.firstName, p.lastName].filter(Boolean).join(' ').trim() || p.email;

/**
 * A hand-over's expert: the one named, else the sample's assigned expert (while active), else the
 * person recording it. Naming someone who is not an active staff member or admin is 400 on `expertId`.
 */
async function handOverExpert(db: DbOrTx, named: number | null, sample: SampleRow, actorId: number) {
  const assigned =
    named === null && sample.assignedStaffId !== null
      ? await findExpert(db, sample.assignedStaffId)
      : undefined;
  const expert = assigned ?? (await findExpert(db, named ?? actorId));
  if (!expert) throw badRequest(M.expert, [{ path: 'expertId', message: M.expert }]);
  return { expertId: expert.id, expertName: expertName(expert) };
}

async function lockedSample(db: DbOrTx, id: number): Promise<SampleRow> {
  const sample = await lockSample(db, id);
  if (!sample) throw notFound(SAMPLE_NOT_FOUND);
  return sample;
}

/** The JSON of the intake's 'intake' part, checked against the shared contract. */
export function parseIntake(text: string | undefined): z.output<typeof intakeRequest> {
  if (text === undefined)
    throw badRequest("The 'intake' part is required", [
      { path: 'intake', message: "The 'intake' part is required" },
    ]);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw badRequest("The 'intake' part must be JSON", [
      { path: 'intake', message: "The 'intake' part must be JSON" },
    ]);
  }
  const unclean = findUncleanText(json);
  if (unclean !== null) throw invalidText(unclean || 'intake');
  const parsed = intakeRequest.safeParse(json);
  if (!parsed.success) throw invalidPayload(fieldErrors(parsed.error.issues, 'intake'));
  return parsed.data;
}

/**
 * Checks an item in: the arrival, its photos (copies made in the background like every photo), the
 * location it goes to, and the owner's "Your item has arrived" mail. A second intake is 409. The
 * stored photos are removed when anything is refused or fails.
 */
export async function receiveItem(
  deps: Deps,
  actor: Actor,
  sampleId: number,
  received: { fields: Record<string, string>; files: StoredFile[] },
): Promise<SampleRow> {
  try {
    const intake = parseIntake(received.fields.intake);
    return await deps.db.transaction(async (tx) => {
      const sample = await lockedSample(tx, sampleId);
      if (sample.custodyState !== 'awaiting-arrival') throw conflict(M.alreadyReceived);
      const location = intake.locationId === null ? null : await usableLocation(tx, intake.locationId);
      const at = new Date(intake.receivedAt);
      const { eventId, sample: updated } = await recordCustodyEvent(tx, {
        sampleId,
        event: 'received',
        state: location ? 'in-storage' : 'received',
        location,
        at,
        byUserId: actor.id,
        note: intake.note,
        details: {
          itemCount: intake.itemCount,
          packaging: intake.packaging,
          conditionOnArrival: intake.conditionOnArrival,
        },
      });
      await insertArrivalPhotos(tx, sampleId, eventId, received.files);
      await mailItemArrived(tx, deps.mailer, sample, {
        at,
        itemCount: intake.itemCount,
        condition: intake.conditionOnArrival,
      });
      await emitWebhookEvent(tx, 'sample.received', sample.userId, {
        sampleId,
        displayId: displaySampleId(sampleId),
        itemName: sample.itemName,
      });
      await recordAudit(tx, {
        ...actor.audit,
        action: 'custody.received',
        subject: { type: 'sample', id: sampleId },
        before: custodyValues(sample),
        after: {
          ...custodyValues(updated),
          receivedAt: at,
          itemCount: intake.itemCount,
          packaging: intake.packaging,
          conditionOnArrival: intake.conditionOnArrival,
          arrivalPhotos: received.files.length,
          note: intake.note,
        },
      });
      return updated;
    });
  } catch (err) {
    await removeStoredFiles(deps.storage, received.files);
    throw err;
  }
}

const MOVE_ACTIONS = {
  moved: 'custody.moved',
  'to-expert': 'custody.to_expert',
  'to-storage': 'custody.to_storage',
} as const satisfies Record<CustodyMove, AuditAction>;

/** The state an item is in after a move. */
function stateAfterMove(move: CustodyMove, current: CustodyState): CustodyState {
  if (move === 'to-expert') return 'with-expert';
  if (move === 'to-storage') return 'in-storage';
  // A move keeps an item with its expert (to the photo studio, say); one from the desk shelves it.
  return current === 'with-expert' ? 'with-expert' : 'in-storage';
}

/** Moves an item inside the lab: to another location, to an expert, back to storage. */
export async function moveItem(
  deps: Pick<Deps, 'db'>,
  actor: Actor,
  sampleId: number,
  body: z.output<typeof custodyMoveRequest>,
): Promise<SampleRow> {
  return deps.db.transaction(async (tx) => {
    const sample = await lockedSample(tx, sampleId);
    if (sample.custodyState === 'awaiting-arrival') throw conflict(M.notArrived);
    if (!isInLab(sample.custodyState)) throw conflict(M.alreadyReturned);
    const location = body.locationId === null ? null : await usableLocation(tx, body.locationId);
    const expert =
      body.event === 'to-expert' ? await handOverExpert(tx, body.expertId, sample, actor.id) : null;
    const { sample: updated } = await recordCustodyEvent(tx, {
      sampleId,
      event: body.event,
      state: stateAfterMove(body.event, sample.custodyState as CustodyState),
      location,
      at: new Date(),
      byUserId: actor.id,
      note: body.note,
      details: expert ?? {},
    });
    await recordAudit(tx, {
      ...actor.audit,
      action: MOVE_ACTIONS[body.event],
      subject: { type: 'sample', id: sampleId },
      before: custodyValues(sample),
      after: { ...custodyValues(updated), ...(expert ?? {}), note: body.note },
    });
    return updated;
  });
}

/**
 * Sends an item back by courier (carrier, tracking number, insured value) or hands it over in person
 * (who collected it, identity checked), and mails the owner. An item that never arrived, or already
 * left, is 409.
 */
export async function returnItem(
  deps: Pick<Deps, 'db' | 'mailer'>,
  actor: Actor,
  sampleId: number,
  body: z.output<typeof returnRequest>,
): Promise<SampleRow> {
  return deps.db.transaction(async (tx) => {
    const sample = await lockedSample(tx, sampleId);
    if (sample.custodyState === 'awaiting-arrival') throw conflict(M.notArrived);
    if (!isInLab(sample.custodyState)) throw conflict(M.alreadyReturned);
    const at = new Date();
    const details: CustodyEventDetails = {};
    let insured: string | null = null;
    if (body.method === 'courier') {
      details.carrier = body.carrier ?? '';
      details.trackingNumber = body.trackingNumber ?? '';
      const value = body.insuredValue;
      if (value !== null && value !== undefined && value !== '' && body.currency) {
        const parsed = parseAmount(value, body.currency);
        if (!parsed.ok) throw new AppError(400, parsed.message);
        details.insuredValueMinor = parsed.minor;
        details.insuredCurrency = body.currency;
        insured = formatMoney(parsed.minor, body.currency);
      }
    } else {
      details.collectedBy = body.collectedBy ?? '';
      details.idChecked = true;
    }
    const { sample: updated } = await recordCustodyEvent(tx, {
      sampleId,
      event: body.method === 'courier' ? 'returned' : 'collected',
      state: body.method === 'courier' ? 'returned' : 'collected',
      location: null,
      at,
      byUserId: actor.id,
      note: body.note,
      details,
    });
    await mailItemReturned(
      tx,
      deps.mailer,
      sample,
      body.method === 'courier'
        ? {
            method: 'courier',
            at,
            carrier: details.carrier ?? '',
            trackingNumber: details.trackingNumber ?? '',
            insured,
          }
        : { method: 'collected', at, collectedBy: details.collectedBy ?? '' },
    );
    await recordAudit(tx, {
      ...actor.audit,
      action: body.method === 'courier' ? 'custody.returned' : 'custody.collected',
      subject: { type: 'sample', id: sampleId },
      before: custodyValues(sample),
      after: { ...custodyValues(updated), ...details, note: body.note },
    });
    return updated;
  });
}
