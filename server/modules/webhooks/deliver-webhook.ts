import { Webhook } from 'standardwebhooks';
import type { JobWorker } from '../../jobs/jobs';
import { WEBHOOK_DELIVERY_QUEUE } from './webhook-events';
import { checkTarget, postToTarget, TargetRefused } from './webhook-target';
import { deliveryToSend, recordAttempt, setDeliveryState } from './webhooks.queries';

/**
 * The delivery job (docs/product/partners.md): checks the endpoint's address again, signs the stored
 * body with the endpoint's secret (Standard Webhooks: webhook-id, webhook-timestamp,
 * webhook-signature), POSTs it to the checked address and logs the attempt. Anything but a 2xx
 * answer fails the attempt, so the queue retries it with its back-off; the last failure marks the
 * delivery failed. A delivery already delivered (a run repeated after a crash) is not sent again.
 */
export function registerWebhookDelivery(worker: JobWorker, opts: { allowLoopback: boolean }) {
  worker.registerJobHandler<{ deliveryId: number }>(
    WEBHOOK_DELIVERY_QUEUE,
    async ({ deliveryId }, ctx) => {
      const found = await deliveryToSend(ctx.db, deliveryId);
      if (!found || found.delivery.state === 'delivered') return;
      const { delivery } = found;
      const started = Date.now();
      let statusCode: number | null = null;
      let response: string;
      try {
        const target = await checkTarget(found.url, opts.allowLoopback);
        const at = new Date();
        const signature = new Webhook(found.secret).sign(delivery.messageId, at, delivery.body);
        const answer = await postToTarget(target, delivery.body, {
          'webhook-id': delivery.messageId,
          'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
          'webhook-signature': signature,
          'user-agent': 'valuation-lab-webhooks/1',
        });
        statusCode = answer.statusCode;
        response = answer.text;
      } catch (err) {
        response =
          err instanceof TargetRefused
            ? `Not sent: ${err.message}`
            : `No answer: ${err instanceof Error ? err.message : String(err)}`;
      }
      await recordAttempt(ctx.db, {
        deliveryId,
        statusCode,
        response: response.slice(0, 600),
        durationMs: Date.now() - started,
      });
      if (statusCode !== null && statusCode >= 200 && statusCode < 300) {
        await setDeliveryState(ctx.db, deliveryId, 'delivered');
        return;
      }
      if (ctx.isFinalAttempt) await setDeliveryState(ctx.db, deliveryId, 'failed');
      throw new Error(statusCode === null ? response : `The endpoint answered ${statusCode}`);
    },
    { concurrency: 4, leaseMs: 60_000 },
  );
}
