import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses, idParams } from '../../../common/contracts/errors';
import {
  createWebhookBody,
  webhookCreated,
  webhookDelivery,
  webhookDeliveryParams,
  webhookSchema,
} from '../../../common/contracts/webhooks';
import type { AppDeps } from '../../app-deps';
import { auditContext } from '../../audit/request';
import { currentUser, requirePermission } from '../../plugins/auth';
import { canManageWebhooks } from '../../policies/webhooks';
import { registerWebhookDelivery } from './deliver-webhook';
import { ownWebhook, redeliver, registerWebhook, removeWebhook, sendTest } from './manage-webhooks';
import { presentDelivery, presentWebhook } from './webhooks.presenter';
import { listWebhooks, recentDeliveries } from './webhooks.queries';

/**
 * Webhooks (docs/product/partners.md): a customer's endpoints receive the events of their samples, an
 * admin's the lab's. Sessions and keys with `webhooks:manage`.
 */
export function webhooksRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    registerWebhookDelivery(deps.jobs, { allowLoopback: deps.config.webhooksAllowLoopback });
    const guard = requirePermission(canManageWebhooks);
    const config = { apiKeyScope: 'webhooks:manage' as const };

    app.post(
      '/api/webhooks',
      {
        onRequest: guard,
        config,
        schema: {
          tags: ['webhooks'],
          summary: 'Register an endpoint; its signing secret is in this answer only',
          description:
            'The URL must resolve to public addresses only (private, loopback and link-local are refused).',
          security: [{ bearer: [] }],
          body: createWebhookBody,
          response: { 201: webhookCreated, ...errorResponses(400, 401, 403, 409) },
        },
      },
      async (request, reply) => {
        const { row, secret } = await registerWebhook(
          deps,
          currentUser(request),
          auditContext(request),
          request.body,
        );
        reply.code(201);
        return { ...presentWebhook(row), secret };
      },
    );

    app.get(
      '/api/webhooks',
      {
        onRequest: guard,
        config,
        schema: {
          tags: ['webhooks'],
          summary: "The caller's webhook endpoints, newest first",
          security: [{ bearer: [] }],
          response: { 200: z.array(webhookSchema), ...errorResponses(401, 403) },
        },
      },
      async (request) => (await listWebhooks(deps.db, currentUser(request).id)).map(presentWebhook),
    );

    app.delete(
      '/api/webhooks/:id',
      {
        onRequest: guard,
        config,
        schema: {
          tags: ['webhooks'],
          summary: 'Delete an endpoint and its delivery log; nothing more is sent to it',
          security: [{ bearer: [] }],
          params: idParams,
          response: { 200: webhookSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const row = await removeWebhook(deps, currentUser(request), auditContext(request), request.params.id);
        return presentWebhook(row);
      },
    );

    app.get(
      '/api/webhooks/:id/deliveries',
      {
        onRequest: guard,
        config,
        schema: {
          tags: ['webhooks'],
          summary:
            "An endpoint's latest 50 deliveries, each attempt with the status and the start of the answer",
          security: [{ bearer: [] }],
          params: idParams,
          response: { 200: z.array(webhookDelivery), ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const hook = await ownWebhook(deps.db, currentUser(request).id, request.params.id);
        return (await recentDeliveries(deps.db, hook.id)).map((d) => presentDelivery(d.delivery, d.attempts));
      },
    );

    app.post(
      '/api/webhooks/:id/deliveries/:deliveryId/redeliver',
      {
        onRequest: guard,
        config,
        schema: {
          tags: ['webhooks'],
          summary: 'Send a delivery again, with the same webhook-id',
          security: [{ bearer: [] }],
          params: webhookDeliveryParams,
          response: { 200: webhookDelivery, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const row = await redeliver(deps, currentUser(request), request.params.id, request.params.deliveryId);
        return presentDelivery(row, []);
      },
    );

    app.post(
      '/api/webhooks/:id/test',
      {
        onRequest: guard,
        config,
        schema: {
          tags: ['webhooks'],
          summary: 'Send a test event (webhook.test) to this endpoint',
          security: [{ bearer: [] }],
          params: idParams,
          response: { 201: webhookDelivery, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request, reply) => {
        const delivery = await sendTest(deps, currentUser(request), request.params.id);
        reply.code(201);
        return presentDelivery(delivery, []);
      },
    );
  };
}
