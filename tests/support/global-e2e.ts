import { execSync } from 'node:child_process';

/**
 * Builds the product once for the whole e2e run (the tests start `dist/server/main.js`). Whether
 * Chromium is there is decided in vitest.e2e.config.ts.
 */
export default function setup() {
  if (process.env.E2E_SKIP_BUILD !== '1') execSync('npm run build', { stdio: 'inherit' });
}
