import {
  CUSTODY_MESSAGES as M,
  type createLocationRequest,
  type updateLocationRequest,
} from '../../../common/contracts/custody';
import type { z } from 'zod';
import { type AuditWho, changedFields, recordAudit } from '../../audit/audit';
import type { Db } from '../../db/client';
import { conflict, notFound } from '../../plugins/errors';
import { findLocation, insertLocation, locationNameTaken, updateLocation } from './custody.queries';

// Storage locations (docs/product/custody.md): admins add, rename, retire and bring them back; none is
// ever deleted. Each change and its audit event are written in one transaction.

/** Adds a location; a name already used (ignoring case) is 409. */
export function createLocation(db: Db, who: AuditWho, body: z.output<typeof createLocationRequest>) {
  const { name, description } = body;
  return db.transaction(async (tx) => {
    if (await locationNameTaken(tx, name)) throw conflict(M.locationTaken);
    const row = await insertLocation(tx, { name, description });
    await recordAudit(tx, {
      ...who,
      action: 'location.created',
      subject: { type: 'location', id: row.id },
      before: null,
      after: { name: row.name, description: row.description },
    });
    return row;
  });
}

/** What the audit trail keeps of a location. */
const locationValues = (l: { name: string; description: string | null; retiredAt: Date | null }) => ({
  name: l.name,
  description: l.description,
  retired: l.retiredAt !== null,
});

/** Renames, describes, retires or brings back a location; an unknown one is 404, a taken name 409. */
export async function changeLocation(
  db: Db,
  who: AuditWho,
  id: number,
  body: z.output<typeof updateLocationRequest>,
) {
  const { name, description, retired } = body;
  const updated = await db.transaction(async (tx) => {
    const current = await findLocation(tx, id);
    if (!current) throw notFound(M.locationNotFound);
    if (name !== undefined && (await locationNameTaken(tx, name, id))) throw conflict(M.locationTaken);
    await updateLocation(tx, id, {
      ...(name !== undefined ? { name } : {}),
      ...(description !== undefined ? { description } : {}),
      ...(retired !== undefined ? { retiredAt: retired ? (current.retiredAt ?? new Date()) : null } : {}),
    });
    const after = await findLocation(tx, id);
    const changed = after && changedFields(locationValues(current), locationValues(after));
    if (changed)
      await recordAudit(tx, {
        ...who,
        action: 'location.updated',
        subject: { type: 'location', id },
        ...changed,
      });
    return after;
  });
  if (!updated) throw notFound(M.locationNotFound);
  return updated;
}
