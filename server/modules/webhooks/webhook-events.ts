import { randomBytes } from 'node:crypto';
import type { WebhookEvent } from '../../../common/domain/webhooks';
import { WEBHOOK_MAX_ATTEMPTS, WEBHOOK_TEST_EVENT } from '../../../common/domain/webhooks';
import type { DbOrTx } from '../../db/client';
import { enqueueJob } from '../../jobs/jobs';
import { insertDelivery, subscribedWebhooks } from './webhooks.queries';
import { isoDate } from '../../time';

// Events for partners' systems (docs/product/partners.md). Called inside the transaction of the change
// the event tells about: the delivery rows and their jobs exist exactly when the change commits.

export const WEBHOOK_DELIVERY_QUEUE = 'webhooks.deliver';

/** A Standard Webhooks message id: one per event and endpoint, the same through every retry. */
const newMessageId = () => `msg_${randomBytes(16).toString('base64url')}`;

/** The body every endpoint receives: `{type, timestamp, data}`. */
export const eventBody = (type: string, data: Record<string, unknown>, at = new Date()) =>
  JSON.stringify({ type, timestamp: isoDate(at), data });

/** Queues one delivery of a stored event (new or again) for the delivery job. */
export async function queueDelivery(tx: DbOrTx, deliveryId: number, again = false) {
  await enqueueJob(tx, {
    queue: WEBHOOK_DELIVERY_QUEUE,
    payload: { deliveryId },
    // The first run is queued once, ever; "send again" queues another run of the same delivery.
    ...(again ? {} : { dedupeKey: `delivery:${deliveryId}` }),
    maxAttempts: WEBHOOK_MAX_ATTEMPTS,
  });
}

/** Creates a delivery of `event` for every endpoint subscribed to it that may see `ownerId`'s samples. */
export async function emitWebhookEvent(
  tx: DbOrTx,
  event: WebhookEvent,
  ownerId: number,
  data: Record<string, unknown>,
): Promise<void> {
  const targets = await subscribedWebhooks(tx, event, ownerId);
  if (targets.length === 0) return;
  const body = eventBody(event, data);
  for (const target of targets) {
    const delivery = await insertDelivery(tx, {
      webhookId: target.id,
      messageId: newMessageId(),
      event,
      body,
    });
    await queueDelivery(tx, delivery.id);
  }
}

/** "Send test event": one delivery of `webhook.test` to this endpoint only. */
export async function sendTestEvent(tx: DbOrTx, webhookId: number) {
  const delivery = await insertDelivery(tx, {
    webhookId,
    messageId: newMessageId(),
    event: WEBHOOK_TEST_EVENT,
    body: eventBody(WEBHOOK_TEST_EVENT, { webhookId, message: 'A test event from the valuation lab' }),
  });
  await queueDelivery(tx, delivery.id);
  return delivery;
}
