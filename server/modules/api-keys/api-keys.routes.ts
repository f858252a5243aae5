import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiKeyCreated, apiKeyListItem, createApiKeyBody } from '../../../common/contracts/api-keys';
import { errorResponses, idParams } from '../../../common/contracts/errors';
import type { AppDeps } from '../../app-deps';
import { auditContext } from '../../audit/request';
import { currentUser, requirePermission } from '../../plugins/auth';
import { canHoldApiKeys } from '../../policies/api-keys';
import { listApiKeys } from './api-keys.queries';
import { createApiKey, revokeOwnApiKey } from './manage-api-keys';
import { presentApiKey } from './api-keys.presenter';

/**
 * POST/GET /api/api-keys, DELETE /api/api-keys/{id} (docs/product/partners.md). These calls take a
 * signed-in session only: they declare no key scope, so a key cannot make or revoke keys.
 */
export function apiKeysRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const guard = requirePermission(canHoldApiKeys);

    app.post(
      '/api/api-keys',
      {
        onRequest: guard,
        schema: {
          tags: ['api-keys'],
          summary: 'Create an API key (customers and admins); the key is in this answer only',
          security: [{ bearer: [] }],
          body: createApiKeyBody,
          response: { 201: apiKeyCreated, ...errorResponses(400, 401, 403, 409) },
        },
      },
      async (request, reply) => {
        const created = await createApiKey(
          deps.db,
          currentUser(request),
          auditContext(request),
          request.body,
        );
        reply.code(201);
        return { ...presentApiKey(created.row), key: created.key };
      },
    );

    app.get(
      '/api/api-keys',
      {
        onRequest: guard,
        schema: {
          tags: ['api-keys'],
          summary: "The caller's API keys (name, scopes, created, last used), newest first",
          security: [{ bearer: [] }],
          response: { 200: z.array(apiKeyListItem), ...errorResponses(401, 403) },
        },
      },
      async (request) => (await listApiKeys(deps.db, currentUser(request).id)).map(presentApiKey),
    );

    app.delete(
      '/api/api-keys/:id',
      {
        onRequest: guard,
        schema: {
          tags: ['api-keys'],
          summary: 'Revoke one of your API keys: it stops working at once',
          security: [{ bearer: [] }],
          params: idParams,
          response: { 200: apiKeyListItem, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const row = await revokeOwnApiKey(
          deps.db,
          currentUser(request),
          auditContext(request),
          request.params.id,
        );
        return presentApiKey(row);
      },
    );
  };
}
