import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * Builds the product once: the resilience tests start and kill it. E2E_SKIP_BUILD=1 reuses an
 * existing build in $DIST_DIR (default dist/), and still builds when there is none.
 */
export default function setup() {
  const built = existsSync(join(resolve(process.env.DIST_DIR ?? 'dist'), 'server', 'main.js'));
  // As shipped: inside vitest NODE_ENV is 'test', which would make Vite build React's development runtime.
  if (process.env.E2E_SKIP_BUILD !== '1' || !built)
    execSync('npm run build', { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
}
