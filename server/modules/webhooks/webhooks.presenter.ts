import type { Webhook, WebhookDelivery } from '../../../common/contracts/webhooks';
import type { WebhookEvent } from '../../../common/domain/webhooks';
import { isoDate, isoDateOrNull } from '../../plugins/presented-json';
import type { AttemptRow, DeliveryRow, WebhookRow } from './webhooks.queries';

/** An endpoint as its owner sees it: never its secret after the answer that created it. */
export const presentWebhook = (row: WebhookRow): Webhook => ({
  id: row.id,
  url: row.url,
  events: row.events as WebhookEvent[],
  createdAt: isoDate(row.createdAt),
});

export const presentDelivery = (delivery: DeliveryRow, attempts: AttemptRow[]): WebhookDelivery => ({
  id: delivery.id,
  messageId: delivery.messageId,
  event: delivery.event,
  state: delivery.state,
  createdAt: isoDate(delivery.createdAt),
  deliveredAt: isoDateOrNull(delivery.deliveredAt),
  attempts: attempts.map((a) => ({
    at: isoDate(a.at),
    statusCode: a.statusCode,
    response: a.response,
    durationMs: a.durationMs,
  })),
});
