import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  API_KEY_NOT_FOUND,
  apiKeyCreated,
  apiKeyListItem,
  createApiKeyBody,
} from '../../../common/contracts/api-keys';
import { errorResponses, idParams } from '../../../common/contracts/errors';
import { MAX_API_KEYS_PER_ACCOUNT } from '../../../common/domain/api-keys';
import type { AppDeps } from '../../app-deps';
import { recordAudit } from '../../audit/audit';
import { auditContext } from '../../audit/request';
import { currentUser, requirePermission } from '../../plugins/auth';
import { conflict, notFound } from '../../plugins/errors';
import { canHoldApiKeys } from '../../policies/api-keys';
import { newApiKey } from '../../plugins/api-key-secret';
import { countApiKeys, insertApiKey, listApiKeys, revokeApiKey } from './api-keys.queries';
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
        const user = currentUser(request);
        const created = await deps.db.transaction(async (tx) => {
          if ((await countApiKeys(tx, user.id)) >= MAX_API_KEYS_PER_ACCOUNT)
            throw conflict(`You can hold at most ${MAX_API_KEYS_PER_ACCOUNT} API keys: revoke one first`);
          const secret = newApiKey();
          const row = await insertApiKey(tx, {
            userId: user.id,
            name: request.body.name,
            prefix: secret.prefix,
            keyHash: secret.hash,
            scopes: request.body.scopes,
          });
          await recordAudit(tx, {
            ...auditContext(request),
            action: 'api_key.created',
            subject: { type: 'api_key', id: row.id },
            after: { name: row.name, scopes: row.scopes, prefix: row.prefix },
          });
          return { row, key: secret.key };
        });
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
        const row = await deps.db.transaction(async (tx) => {
          const revoked = await revokeApiKey(tx, currentUser(request).id, request.params.id);
          if (!revoked) throw notFound(API_KEY_NOT_FOUND);
          await recordAudit(tx, {
            ...auditContext(request),
            action: 'api_key.revoked',
            subject: { type: 'api_key', id: revoked.id },
            before: { name: revoked.name, scopes: revoked.scopes, prefix: revoked.prefix },
          });
          return revoked;
        });
        return presentApiKey(row);
      },
    );
  };
}
