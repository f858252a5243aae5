import { randomBytes } from 'node:crypto';
import { WEBHOOK_DELIVERY_NOT_FOUND, WEBHOOK_NOT_FOUND } from '../../../common/contracts/webhooks';
import { MAX_WEBHOOKS_PER_ACCOUNT } from '../../../common/domain/webhooks';
import { type AuditWho, recordAudit } from '../../audit/audit';
import type { Db } from '../../db/client';
import { badRequest, conflict, notFound } from '../../plugins/errors';
import { queueDelivery, sendTestEvent } from './webhook-events';
import { checkTarget, TargetRefused } from './webhook-target';
import {
  countWebhooks,
  deleteWebhook,
  type DeliveryRow,
  findDelivery,
  findOwnWebhook,
  insertWebhook,
  setDeliveryState,
  type WebhookRow,
} from './webhooks.queries';

// What a partner does with their endpoints (docs/product/partners.md): register one (its address
// checked, at most MAX_WEBHOOKS_PER_ACCOUNT), delete one, send a delivery again, send a test event.
// Each change and its audit event commit together.

type Deps = { db: Db; config: { webhooksAllowLoopback: boolean } };

/** A Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/** The caller's own endpoint; someone else's reads as unknown (404). */
export async function ownWebhook(db: Db, userId: number, id: number): Promise<WebhookRow> {
  const row = await findOwnWebhook(db, userId, id);
  if (!row) throw notFound(WEBHOOK_NOT_FOUND);
  return row;
}

/** Registers an endpoint; answers it with its signing secret, which is never shown again. */
export async function registerWebhook(
  deps: Deps,
  user: { id: number },
  who: AuditWho,
  body: { url: string; events: string[] },
): Promise<{ row: WebhookRow; secret: string }> {
  try {
    await checkTarget(body.url, deps.config.webhooksAllowLoopback);
  } catch (err) {
    if (err instanceof TargetRefused) throw badRequest(err.message, [{ path: 'url', message: err.message }]);
    throw err;
  }
  const secret = newSecret();
  const row = await deps.db.transaction(async (tx) => {
    if ((await countWebhooks(tx, user.id)) >= MAX_WEBHOOKS_PER_ACCOUNT)
      throw conflict(`You can register at most ${MAX_WEBHOOKS_PER_ACCOUNT} webhooks: delete one first`);
    const created = await insertWebhook(tx, { userId: user.id, url: body.url, events: body.events, secret });
    await recordAudit(tx, {
      ...who,
      action: 'webhook.created',
      subject: { type: 'webhook', id: created.id },
      after: { url: created.url, events: created.events },
    });
    return created;
  });
  return { row, secret };
}

/** Deletes an endpoint and its delivery log; nothing more is sent to it. */
export function removeWebhook(
  deps: Deps,
  user: { id: number },
  who: AuditWho,
  id: number,
): Promise<WebhookRow> {
  return deps.db.transaction(async (tx) => {
    const deleted = await deleteWebhook(tx, user.id, id);
    if (!deleted) throw notFound(WEBHOOK_NOT_FOUND);
    await recordAudit(tx, {
      ...who,
      action: 'webhook.deleted',
      subject: { type: 'webhook', id: deleted.id },
      before: { url: deleted.url, events: deleted.events },
    });
    return deleted;
  });
}

/** Queues one of the endpoint's deliveries again, with the same webhook-id. */
export async function redeliver(
  deps: Deps,
  user: { id: number },
  hookId: number,
  deliveryId: number,
): Promise<DeliveryRow> {
  const hook = await ownWebhook(deps.db, user.id, hookId);
  const delivery = await findDelivery(deps.db, hook.id, deliveryId);
  if (!delivery) throw notFound(WEBHOOK_DELIVERY_NOT_FOUND);
  return deps.db.transaction(async (tx) => {
    const pending = await setDeliveryState(tx, delivery.id, 'pending');
    await queueDelivery(tx, delivery.id, true);
    return pending ?? delivery;
  });
}

/** Sends a `webhook.test` event to the caller's endpoint. */
export async function sendTest(deps: Deps, user: { id: number }, hookId: number): Promise<DeliveryRow> {
  const hook = await ownWebhook(deps.db, user.id, hookId);
  return deps.db.transaction((tx) => sendTestEvent(tx, hook.id));
}
