import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  addCollectionSamplesBody,
  COLLECTION_MESSAGES,
  collectionDetail,
  collectionListItem,
  createCollectionBody,
  IMPORT_MESSAGES,
  importPreview,
  importQuery,
  importRefused,
  importResult,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_CSV_BYTES,
  MAX_IMPORT_PHOTOS,
  MAX_IMPORT_ROWS,
} from '../../../common/contracts/collections';
import { errorResponses, idParams } from '../../../common/contracts/errors';
import type { AppDeps } from '../../app-deps';
import { auditContext } from '../../audit/request';
import type { DbOrTx } from '../../db/client';
import { currentUser, requirePermission } from '../../plugins/auth';
import { AppError, forbidden, notFound } from '../../plugins/errors';
import { presentedJson } from '../../plugins/presented-json';
import type { Actor } from '../../policies/actor';
import { canCreateCollection, canFillCollection, canReadCollection } from '../../policies/collections';
import { seesCustodyDetails } from '../../policies/custody';
import {
  findCollection,
  findCollectionHead,
  listCollectionItems,
  listOwnCollections,
} from './collections.queries';
import { importBudget, importIntoCollection, previewImport } from './import-collection';
import { receiveImport } from './import-upload';
import { releaseReservation } from '../samples/submission-reservations.queries';
import { presentCollection, presentCollectionDetail } from './collections.presenter';
import { addSamplesToCollection, createCollection } from './fill-collection';

/** A collection as `actor` may see it, or 404 (docs/product/roles-and-access.md). */
export async function readableCollection(db: DbOrTx, actor: Actor, id: number) {
  const head = await findCollectionHead(db, id);
  if (!head || !canReadCollection(actor, head.collection)) throw notFound(COLLECTION_MESSAGES.notFound);
  const items = await listCollectionItems(db, id);
  return presentCollectionDetail(head, items, seesCustodyDetails(actor));
}

/**
 * POST/GET /api/collections, GET /api/collections/{id}, POST /api/collections/{id}/samples
 * (docs/product/collections.md, api.md). Keys: `samples:read` reads, `samples:write` fills.
 */
export function collectionsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/collections',
      {
        config: { apiKeyScope: 'samples:write' },
        onRequest: requirePermission(canCreateCollection),
        schema: {
          tags: ['collections'],
          summary: 'Make a collection of your own samples (name and purpose); it starts empty',
          security: [{ bearer: [] }],
          body: createCollectionBody,
          response: { 201: collectionDetail, ...errorResponses(400, 401, 403) },
        },
      },
      async (request, reply) => {
        const user = currentUser(request);
        const row = await createCollection(deps, user, auditContext(request), request.body);
        reply.code(201);
        return readableCollection(deps.db, user, row.id);
      },
    );

    app.get(
      '/api/collections',
      {
        config: { apiKeyScope: 'samples:read' },
        serializerCompiler: presentedJson,
        schema: {
          tags: ['collections'],
          summary: "The caller's own collections with their progress, newest first",
          security: [{ bearer: [] }],
          response: { 200: z.array(collectionListItem), ...errorResponses(401, 403) },
        },
      },
      async (request) => {
        const rows = await listOwnCollections(deps.db, currentUser(request).id);
        return rows.map((r) => presentCollection(r.collection, r));
      },
    );

    app.get(
      '/api/collections/:id',
      {
        config: { apiKeyScope: 'samples:read' },
        serializerCompiler: presentedJson,
        schema: {
          tags: ['collections'],
          summary:
            'One collection: its items with status, custody and the issued value, and its progress (owner, staff, admins)',
          security: [{ bearer: [] }],
          params: idParams,
          response: { 200: collectionDetail, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => readableCollection(deps.db, currentUser(request), request.params.id),
    );

    app.post(
      '/api/collections/:id/samples',
      {
        config: { apiKeyScope: 'samples:write' },
        schema: {
          tags: ['collections'],
          summary:
            'Add your existing samples to your collection (all or none; a sample is in at most one collection)',
          security: [{ bearer: [] }],
          params: idParams,
          body: addCollectionSamplesBody,
          response: { 200: collectionDetail, ...errorResponses(400, 401, 403, 404, 409) },
        },
      },
      async (request) => {
        const user = currentUser(request);
        await addSamplesToCollection(
          deps,
          user,
          auditContext(request),
          request.params.id,
          request.body.sampleIds,
        );
        return readableCollection(deps.db, user, request.params.id);
      },
    );

    app.post(
      '/api/collections/:id/import',
      {
        config: { apiKeyScope: 'samples:write' },
        schema: {
          tags: ['collections'],
          summary: 'Bulk intake: one item per CSV row with the photos it names, all rows or none',
          description:
            'Multipart: part `file` (text/csv; the header names the columns: the submission fields and `photos`, ' +
            'file names separated by ";"), then repeated `photos` files. ' +
            `At most ${MAX_IMPORT_ROWS} rows, a CSV of ${MAX_IMPORT_CSV_BYTES / (1024 * 1024)} MB, ` +
            `${MAX_IMPORT_PHOTOS} photos and ${MAX_IMPORT_BYTES / 1024 ** 3} GB in all. ` +
            '`?dryRun=1` answers 200 with the rows as read and every problem and stores nothing ' +
            '(photos may then be named in repeated `photoNames` text fields instead of sent). ' +
            'Any problem: 400 with every problem (row, field, message), nothing stored.',
          security: [{ bearer: [] }],
          consumes: ['multipart/form-data'],
          params: idParams,
          querystring: importQuery,
          response: {
            200: importPreview,
            201: importResult,
            400: importRefused,
            ...errorResponses(401, 403, 404, 413, 415, 429),
          },
        },
      },
      async (request, reply) => {
        const user = currentUser(request);
        const collection = await findCollection(deps.db, request.params.id);
        if (!collection || !canReadCollection(user, collection)) throw notFound(COLLECTION_MESSAGES.notFound);
        if (!canFillCollection(user, collection))
          throw forbidden('Only the owner can add items to a collection');
        const dryRun = request.query.dryRun === '1' || request.query.dryRun === 'true';
        const declared = Number(request.headers['content-length']);
        if (Number.isFinite(declared) && declared > MAX_IMPORT_BYTES)
          throw new AppError(413, IMPORT_MESSAGES.tooLarge);
        if (dryRun) {
          const received = await receiveImport(request, deps.storage, unlimited(), true);
          return previewImport(received);
        }
        const budget = await importBudget(deps, user.id, Number.isFinite(declared) ? declared : undefined);
        try {
          const received = await receiveImport(request, deps.storage, budget, false);
          const sampleIds = await importIntoCollection(
            deps,
            user,
            auditContext(request),
            collection.id,
            received,
            budget.reservationId,
          );
          reply.code(201);
          return {
            created: sampleIds.length,
            sampleIds,
            collection: await readableCollection(deps.db, user, collection.id),
          };
        } catch (err) {
          // The transaction that stores the items ends the reservation; anything short of it gives it back.
          if (budget.reservationId) await releaseReservation(deps.db, budget.reservationId).catch(() => {});
          throw err;
        }
      },
    );
  };
}

const unlimited = () => ({ remaining: Number.POSITIVE_INFINITY, limit: Number.POSITIVE_INFINITY });
