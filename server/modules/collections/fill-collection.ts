import { COLLECTION_MESSAGES } from '../../../common/contracts/collections';
import { displaySampleId } from '../../../common/domain/samples';
import type { AppDeps } from '../../app-deps';
import { recordAudit, type AuditWho } from '../../audit/audit';
import type { DbOrTx } from '../../db/client';
import type { AuthUser } from '../../plugins/auth';
import { conflict, forbidden, notFound } from '../../plugins/errors';
import { canFillCollection, canReadCollection } from '../../policies/collections';
import {
  type CollectionRow,
  findCollectionForUpdate,
  insertCollection,
  putSamplesInCollection,
  samplesForFilling,
  touchCollection,
} from './collections.queries';

// Making a collection and putting a customer's existing samples in it (docs/product/collections.md).

/** Makes `user`'s new collection and records it in the audit trail. */
export async function createCollection(
  deps: Pick<AppDeps, 'db'>,
  user: Pick<AuthUser, 'id'>,
  who: AuditWho,
  values: { name: string; purpose: string },
): Promise<CollectionRow> {
  return deps.db.transaction(async (tx) => {
    const row = await insertCollection(tx, { userId: user.id, ...values });
    await recordAudit(tx, {
      ...who,
      action: 'collection.created',
      subject: { type: 'collection', id: row.id },
      after: { name: row.name, purpose: row.purpose },
    });
    return row;
  });
}

/**
 * The collection `id` locked for filling by `user`: 404 when they may not read it (never revealing
 * it exists), 403 when they may read it but it is not theirs (the lab reads every collection).
 */
export async function collectionToFill(tx: DbOrTx, user: AuthUser, id: number): Promise<CollectionRow> {
  const collection = await findCollectionForUpdate(tx, id);
  if (!collection || !canReadCollection(user, collection)) throw notFound(COLLECTION_MESSAGES.notFound);
  if (!canFillCollection(user, collection)) throw forbidden('Only the owner can add items to a collection');
  return collection;
}

/**
 * Puts the owner's samples `sampleIds` in the collection, all or none: a sample that is not theirs
 * (or does not exist) is 404, one already in another collection 409 (a sample belongs to at most
 * one). Samples already in this collection are left as they are. Records the samples added.
 */
export async function addSamplesToCollection(
  deps: Pick<AppDeps, 'db'>,
  user: AuthUser,
  who: AuditWho,
  id: number,
  sampleIds: number[],
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const collection = await collectionToFill(tx, user, id);
    const found = await samplesForFilling(tx, sampleIds);
    const mine = found.filter((s) => s.userId === collection.userId);
    if (mine.length !== sampleIds.length) throw notFound(COLLECTION_MESSAGES.sampleNotFound);
    const elsewhere = mine.find((s) => s.collectionId !== null && s.collectionId !== collection.id);
    if (elsewhere)
      throw conflict(
        COLLECTION_MESSAGES.inOtherCollection(displaySampleId(elsewhere.id), elsewhere.collectionName ?? ''),
      );
    const toAdd = mine.filter((s) => s.collectionId === null).map((s) => s.id);
    if (!toAdd.length) return;
    await putSamplesInCollection(tx, collection.id, toAdd);
    await touchCollection(tx, collection.id);
    await recordAudit(tx, {
      ...who,
      action: 'collection.samples_added',
      subject: { type: 'collection', id: collection.id },
      after: { sampleIds: toAdd },
    });
  });
}
