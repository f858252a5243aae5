import { seedDemoCollections } from './demo-collections';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { samples, users } from '../db/schema';
import type { Storage } from '../storage/storage';
import { seedDemoCustody } from './demo-custody';
import { seedDemoInquiries } from './demo-inquiries';
import { seedDemoLabSettings, seedDemoQuotes, seedDemoSignatures } from './demo-lab';
import { seedDemoReports } from './demo-reports';

export type DemoSeedContext = {
  config: Config;
  db: Db;
  storage: Storage;
  samples: (typeof samples.$inferSelect)[];
  staff: (typeof users.$inferSelect)[];
};

/** Demo data that needs the feature modules; each module owns its file. Returns lines to print. */
export async function seedDemoExtras(ctx: DemoSeedContext): Promise<{ lines: string[] }> {
  // The lab's settings and signatures first: the reports print them.
  await seedDemoLabSettings(ctx);
  await seedDemoSignatures(ctx);
  await seedDemoQuotes(ctx);
  await seedDemoCustody(ctx);
  await seedDemoCollections(ctx);
  const lines = [...(await seedDemoReports(ctx)), ...(await seedDemoInquiries(ctx))];
  return { lines };
}
