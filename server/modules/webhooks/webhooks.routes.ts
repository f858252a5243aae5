import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses, idParams } from '../../../common/contracts/errors';
import {
  createWebhookBody,
  WEBHOOK_DELIVERY_NOT_FOUND,
  WEBHOOK_NOT_FOUND,
  webhookCreated,
  webhookDelivery,
  webhookDeliveryParams,
  webhookSchema,
} from '../../../common/contracts/webhooks';
import { MAX_WEBHOOKS_PER_ACCOUNT } from '../../../common/domain/webhooks';
import type { AppDeps } from '../../app-deps';
import { recordAudit } from '../../audit/audit';
import { auditContext } from '../../audit/request';
import { currentUser, requirePermission } from '../../plugins/auth';
import { badRequest, conflict, notFound } from '../../plugins/errors';
import { canManageWebhooks } from '../../policies/webhooks';
import { registerWebhookDelivery } from './deliver-webhook';
import { queueDelivery, sendTestEvent } from './webhook-events';
import { checkTarget, TargetRefused } from './webhook-target';
import { presentDelivery, presentWebhook } from './webhooks.presenter';
import {
  countWebhooks,
  deleteWebhook,
  findDelivery,
  findOwnWebhook,
  insertWebhook,
  listWebhooks,
  recentDeliveries,
  setDeliveryState,
} from './webhooks.queries';

/** A Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * Webhooks (docs/product/partners.md): a customer's endpoints receive the events of their samples, an
 * admin's the lab's. Sessions and keys with `webhooks:manage`.
 */
export function webhooksRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    registerWebhookDelivery(deps.jobs, { allowLoopback: deps.config.webhooksAllowLoopback });
    const guard = requirePermission(canManageWebhooks);
    const config = { apiKeyScope: 'webhooks:manage' as const };
    const ownWebhook = async (userId: number, id: number) => {
      const row = await findOwnWebhook(deps.db, userId, id);
      if (!row) throw notFound(WEBHOOK_NOT_FOUND);
      return row;
    };

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
        const user = currentUser(request);
        try {
          await checkTarget(request.body.url, deps.config.webhooksAllowLoopback);
        } catch (err) {
          if (err instanceof TargetRefused)
            throw badRequest(err.message, [{ path: 'url', message: err.message }]);
          throw err;
        }
        const secret = newSecret();
        const row = await deps.db.transaction(async (tx) => {
          if ((await countWebhooks(tx, user.id)) >= MAX_WEBHOOKS_PER_ACCOUNT)
            throw conflict(`You can register at most ${MAX_WEBHOOKS_PER_ACCOUNT} webhooks: delete one first`);
          const created = await insertWebhook(tx, {
            userId: user.id,
            url: request.body.url,
            events: request.body.events,
            secret,
          });
          await recordAudit(tx, {
            ...auditContext(request),
            action: 'webhook.created',
            subject: { type: 'webhook', id: created.id },
            after: { url: created.url, events: created.events },
          });
          return created;
        });
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
        const row = await deps.db.transaction(async (tx) => {
          const deleted = await deleteWebhook(tx, currentUser(request).id, request.params.id);
          if (!deleted) throw notFound(WEBHOOK_NOT_FOUND);
          await recordAudit(tx, {
            ...auditContext(request),
            action: 'webhook.deleted',
            subject: { type: 'webhook', id: deleted.id },
            before: { url: deleted.url, events: deleted.events },
          });
          return deleted;
        });
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
        const hook = await ownWebhook(currentUser(request).id, request.params.id);
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
        const hook = await ownWebhook(currentUser(request).id, request.params.id);
        const delivery = await findDelivery(deps.db, hook.id, request.params.deliveryId);
        if (!delivery) throw notFound(WEBHOOK_DELIVERY_NOT_FOUND);
        const row = await deps.db.transaction(async (tx) => {
          const pending = await setDeliveryState(tx, delivery.id, 'pending');
          await queueDelivery(tx, delivery.id, true);
          return pending ?? delivery;
        });
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
        const hook = await ownWebhook(currentUser(request).id, request.params.id);
        const delivery = await deps.db.transaction((tx) => sendTestEvent(tx, hook.id));
        reply.code(201);
        return presentDelivery(delivery, []);
      },
    );
  };
}
