import { and, count, desc, eq, inArray, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { users, webhookAttempts, webhookDeliveries, webhooks } from '../../db/schema';

export type WebhookRow = typeof webhooks.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;

export function listWebhooks(db: DbOrTx, userId: number) {
  return db.select().from(webhooks).where(eq(webhooks.userId, userId)).orderBy(desc(webhooks.id));
}

export async function countWebhooks(db: DbOrTx, userId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(webhooks).where(eq(webhooks.userId, userId));
  return row?.n ?? 0;
}

export async function findOwnWebhook(
  db: DbOrTx,
  userId: number,
  id: number,
): Promise<WebhookRow | undefined> {
  const [row] = await db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.id, id), eq(webhooks.userId, userId)));
  return row;
}

export async function insertWebhook(
  db: DbOrTx,
  values: { userId: number; url: string; events: string[]; secret: string },
): Promise<WebhookRow> {
  const [row] = await db.insert(webhooks).values(values).returning();
  if (!row) throw new Error('webhook not stored');
  return row;
}

export async function deleteWebhook(db: DbOrTx, userId: number, id: number): Promise<WebhookRow | undefined> {
  const [row] = await db
    .delete(webhooks)
    .where(and(eq(webhooks.id, id), eq(webhooks.userId, userId)))
    .returning();
  return row;
}

/**
 * The endpoints an event of `ownerId`'s sample goes to: the owner's, and every active admin's,
 * subscribed to `event`, of active accounts.
 */
export function subscribedWebhooks(db: DbOrTx, event: string, ownerId: number) {
  return db
    .select({ id: webhooks.id })
    .from(webhooks)
    .innerJoin(users, eq(users.id, webhooks.userId))
    .where(
      and(
        eq(users.isActive, true),
        or(eq(webhooks.userId, ownerId), eq(users.role, 'admin')),
        sql`${webhooks.events} @> ${JSON.stringify([event])}::jsonb`,
      ),
    );
}

export async function insertDelivery(
  db: DbOrTx,
  values: { webhookId: number; messageId: string; event: string; body: string },
): Promise<DeliveryRow> {
  const [row] = await db.insert(webhookDeliveries).values(values).returning();
  if (!row) throw new Error('delivery not stored');
  return row;
}

/** A delivery with its endpoint (url, secret), for the delivery job. */
export async function deliveryToSend(db: DbOrTx, id: number) {
  const [row] = await db
    .select({ delivery: webhookDeliveries, url: webhooks.url, secret: webhooks.secret })
    .from(webhookDeliveries)
    .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
    .where(eq(webhookDeliveries.id, id));
  return row;
}

export async function findDelivery(
  db: DbOrTx,
  webhookId: number,
  id: number,
): Promise<DeliveryRow | undefined> {
  const [row] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.webhookId, webhookId)));
  return row;
}

export async function recordAttempt(
  db: DbOrTx,
  values: { deliveryId: number; statusCode: number | null; response: string; durationMs: number },
) {
  await db.insert(webhookAttempts).values(values);
}

export async function setDeliveryState(db: DbOrTx, id: number, state: DeliveryRow['state']) {
  const [row] = await db
    .update(webhookDeliveries)
    .set({ state, deliveredAt: state === 'delivered' ? new Date() : null })
    .where(eq(webhookDeliveries.id, id))
    .returning();
  return row;
}

/** The newest deliveries of an endpoint, each with its attempts in order. */
export async function recentDeliveries(db: DbOrTx, webhookId: number, limit = 50) {
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.webhookId, webhookId))
    .orderBy(desc(webhookDeliveries.id))
    .limit(limit);
  const ids = rows.map((r) => r.id);
  const attempts = ids.length
    ? await db
        .select()
        .from(webhookAttempts)
        .where(inArray(webhookAttempts.deliveryId, ids))
        .orderBy(webhookAttempts.id)
    : [];
  return rows.map((delivery) => ({
    delivery,
    attempts: attempts.filter((a) => a.deliveryId === delivery.id),
  }));
}
