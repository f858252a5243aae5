import { z } from 'zod';
import { MAX_WEBHOOK_URL_LENGTH, WEBHOOK_EVENTS } from '../domain/webhooks';

export const WEBHOOK_URL_MESSAGE = 'Enter a valid http:// or https:// URL';
export const WEBHOOK_PRIVATE_TARGET = 'This URL points to a private, loopback or link-local address';
export const WEBHOOK_HOST_UNKNOWN = 'The host of this URL could not be found';
export const WEBHOOK_NOT_FOUND = 'Webhook not found';
export const WEBHOOK_DELIVERY_NOT_FOUND = 'Delivery not found';

/** POST /api/webhooks */
export const createWebhookBody = z.object({
  url: z
    .string({ error: WEBHOOK_URL_MESSAGE })
    .trim()
    .max(MAX_WEBHOOK_URL_LENGTH, WEBHOOK_URL_MESSAGE)
    .refine((v) => {
      try {
        const u = new URL(v);
        return (u.protocol === 'http:' || u.protocol === 'https:') && !u.username && !u.password;
      } catch {
        return false;
      }
    }, WEBHOOK_URL_MESSAGE),
  events: z
    .array(z.enum(WEBHOOK_EVENTS), { error: 'Choose at least one event' })
    .min(1, 'Choose at least one event')
    .transform((events) => [...new Set(events)]),
});
export type CreateWebhookBody = z.input<typeof createWebhookBody>;

export const webhookSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  createdAt: z.string(),
});
export type Webhook = z.infer<typeof webhookSchema>;

/** The answer to creating a webhook: the only time its signing secret is shown. */
export const webhookCreated = webhookSchema.extend({ secret: z.string() });
export type WebhookCreated = z.infer<typeof webhookCreated>;

export const webhookAttempt = z.object({
  at: z.string(),
  /** The endpoint's HTTP status; null when it did not answer (refused, timed out, not allowed). */
  statusCode: z.number().int().nullable(),
  /** The start of the endpoint's answer, or why there was none. */
  response: z.string(),
  durationMs: z.number().int(),
});

export const webhookDelivery = z.object({
  id: z.number().int(),
  /** The `webhook-id` header: the same for every attempt of this delivery. */
  messageId: z.string(),
  event: z.string(),
  state: z.enum(['pending', 'delivered', 'failed']),
  createdAt: z.string(),
  deliveredAt: z.string().nullable(),
  attempts: z.array(webhookAttempt),
});
export type WebhookDelivery = z.infer<typeof webhookDelivery>;

export const webhookDeliveryParams = z.object({
  id: z.coerce.number().int().positive().max(2_147_483_647),
  deliveryId: z.coerce.number().int().positive().max(2_147_483_647),
});
