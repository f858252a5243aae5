import type { DemoSeedContext } from './demo-extras';

/** Issue #6: issued reports (with elements) for the completed demo samples. */
export async function seedDemoReports(_ctx: DemoSeedContext): Promise<string[]> {
  return [];
}
