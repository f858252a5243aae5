// `npm test`: typecheck, lint, unit + API integration on both databases, then e2e in Chromium.
// Which external programs are there is decided by the vitest configs and the tests themselves, all
// through tests/support/programs.ts: outside CI a missing one skips its tests with a loud message;
// with CI=true it fails.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const outDir = mkdtempSync(join(tmpdir(), 'vl-test-'));
const totals = { passed: 0, failed: 0, skipped: 0 };
const failedSteps = [];

function run(label, cmd, args) {
  console.log(`\n▶ ${label}: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: process.env });
  if (r.status !== 0) failedSteps.push(label);
  return r.status === 0;
}

function addVitestResults(file) {
  if (!existsSync(file)) return;
  const json = JSON.parse(readFileSync(file, 'utf8'));
  totals.passed += json.numPassedTests ?? 0;
  totals.failed += json.numFailedTests ?? 0;
  totals.skipped += (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0);
}

run('typecheck', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']);
run('lint', 'npm', ['run', '--silent', 'lint']);

// Every project of vitest.config.ts: unit, api-pglite, and api-postgres when PostgreSQL is installed.
const apiJson = join(outDir, 'api.json');
run('unit + integration', 'npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${apiJson}`,
]);
addVitestResults(apiJson);

const e2eJson = join(outDir, 'e2e.json');
run('e2e', 'npx', [
  'vitest',
  'run',
  '--config',
  'vitest.e2e.config.ts',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${e2eJson}`,
]);
addVitestResults(e2eJson);

console.log(`\nSteps failed: ${failedSteps.length ? failedSteps.join(', ') : 'none'}`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedSteps.length || totals.failed ? 1 : 0);
