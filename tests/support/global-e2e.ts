import { execSync } from 'node:child_process';
import { chromiumAvailable, CHROMIUM_PATH } from './browser';

/** Builds the product once for the whole e2e run (the tests start `dist/server/main.js`). */
export default function setup() {
  if (!chromiumAvailable())
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: the e2e suite cannot run`);
  if (process.env.E2E_SKIP_BUILD !== '1') execSync('npm run build', { stdio: 'inherit' });
}
