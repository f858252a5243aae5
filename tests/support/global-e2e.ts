import { execSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { DATA_TEMPLATE_ENV, prepareDataTemplate } from './product';

/**
 * Builds the product once for the whole e2e run (the tests start `dist/server/main.js`), then makes
 * the DATA_DIR template every product without a DATA_DIR of its own is copied from (migrated, with
 * the e2e admin), unless E2E_DATA_TEMPLATE already names one. Whether Chromium is there is decided
 * in vitest.e2e.config.ts.
 */
export default async function setup() {
  // NODE_ENV is 'test' inside vitest: Vite would then build React's development runtime (slower
  // pages, and a build the web size check refuses). The product is tested as it ships.
  if (process.env.E2E_SKIP_BUILD !== '1')
    execSync('npm run build', { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  // One made beforehand (scripts/test.mjs makes it while the API suite runs) is its maker's to remove.
  const given = process.env[DATA_TEMPLATE_ENV];
  if (given && existsSync(given)) return undefined;
  const template = await prepareDataTemplate();
  process.env[DATA_TEMPLATE_ENV] = template;
  return () => rmSync(template, { recursive: true, force: true });
}
