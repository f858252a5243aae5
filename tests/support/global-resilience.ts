import { execSync } from 'node:child_process';
import { postgresAvailable } from './postgres';

/** Builds the product once (unless E2E_SKIP_BUILD=1): the resilience tests start and kill it. */
export default function setup() {
  if (!postgresAvailable()) throw new Error('PostgreSQL binaries missing: the resilience suite cannot run');
  if (process.env.E2E_SKIP_BUILD !== '1') execSync('npm run build', { stdio: 'inherit' });
}
