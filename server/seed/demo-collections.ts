import { eq, inArray } from 'drizzle-orm';
import { collections, samples, users } from '../db/schema';
import type { DemoSeedContext } from './demo-extras';

// The demo's estate (docs/product/collections.md): the pieces one customer's late aunt left, grouped
// in one collection for the probate valuation, some with their reports out and some still at the
// lab, so the collection page shows its progress and values as far as issued.

/** The demo customer whose items form the estate. */
const ESTATE_OWNER = 'olivia@demo.lab';

export async function seedDemoCollections(ctx: DemoSeedContext): Promise<void> {
  const [owner] = await ctx.db.select().from(users).where(eq(users.email, ESTATE_OWNER)).limit(1);
  if (!owner) return;
  const pieces = ctx.samples.filter((s) => s.userId === owner.id).map((s) => s.id);
  if (!pieces.length) return;
  const [estate] = await ctx.db
    .insert(collections)
    .values({ userId: owner.id, name: 'Estate of Margaret Grant', purpose: 'estate-planning' })
    .returning();
  if (!estate) return;
  await ctx.db.update(samples).set({ collectionId: estate.id }).where(inArray(samples.id, pieces));
}
