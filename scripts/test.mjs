// `npm test`: typecheck, lint, unit + API integration on both databases, then e2e in Chromium.
// Outside CI a missing PostgreSQL or browser is skipped with a loud message; with CI=true it fails.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ci = process.env.CI === 'true' || process.env.CI === '1';
const pgBin = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const outDir = mkdtempSync(join(tmpdir(), 'vl-test-'));
const totals = { passed: 0, failed: 0, skipped: 0 };
const failedSteps = [];

function loud(msg) {
  const bar = '!'.repeat(78);
  console.error(`\n${bar}\n${msg}\n${bar}\n`);
}

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

const projects = ['unit', 'api-pglite'];
if (existsSync(join(pgBin, 'initdb'))) projects.push('api-postgres');
else if (ci) {
  loud(`PostgreSQL server binaries are missing in ${pgBin}: with CI=true this is a failure.`);
  failedSteps.push('postgres-missing');
} else loud(`PostgreSQL server binaries are missing in ${pgBin}: the api-postgres leg is SKIPPED.`);

const apiJson = join(outDir, 'api.json');
run('unit + integration', 'npx', [
  'vitest',
  'run',
  ...projects.flatMap((p) => ['--project', p]),
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${apiJson}`,
]);
addVitestResults(apiJson);

if (existsSync(chromium)) {
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
} else if (ci) {
  loud(`Chromium is missing at ${chromium}: with CI=true this is a failure.`);
  failedSteps.push('chromium-missing');
} else loud(`Chromium is missing at ${chromium}: the e2e leg is SKIPPED (apt-get install -y chromium).`);

console.log(`\nSteps failed: ${failedSteps.length ? failedSteps.join(', ') : 'none'}`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedSteps.length || totals.failed ? 1 : 0);
