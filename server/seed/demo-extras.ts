import type { Config } from '../config';
import type { Db } from '../db/client';
import type { samples, users } from '../db/schema';
import type { Storage } from '../storage/storage';

/**
 * Demo data that needs the feature modules: issued reports with elements (issue #6) and contact
 * inquiries (issue #7). Each module adds its part here.
 */
export async function seedDemoExtras(_ctx: {
  config: Config;
  db: Db;
  storage: Storage;
  samples: (typeof samples.$inferSelect)[];
  staff: (typeof users.$inferSelect)[];
}): Promise<{ lines: string[] }> {
  return { lines: [] };
}
