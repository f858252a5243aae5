import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  addCollectionSamplesBody,
  COLLECTION_MESSAGES,
  collectionDetail,
  collectionListItem,
  createCollectionBody,
} from '../../../common/contracts/collections';
import { errorResponses, idParams } from '../../../common/contracts/errors';
import type { AppDeps } from '../../app-deps';
import { auditContext } from '../../audit/request';
import type { DbOrTx } from '../../db/client';
import { currentUser, requirePermission } from '../../plugins/auth';
import { notFound } from '../../plugins/errors';
import { presentedJson } from '../../plugins/presented-json';
import type { Actor } from '../../policies/actor';
import { canCreateCollection, canReadCollection } from '../../policies/collections';
import { seesCustodyDetails } from '../../policies/custody';
import { findCollectionHead, listCollectionItems, listOwnCollections } from './collections.queries';
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
  };
}
