// `npm test`: typecheck, lint, unit + API integration on both databases, then e2e in Chromium.
// Which external programs are there is decided by the vitest configs and the tests themselves, all
// through tests/support/programs.ts: outside CI a missing one skips its tests with a loud message;
// with CI=true it fails.
//
// Order, for a two-core machine: typecheck, lint and the product build are single-threaded for most of
// their time, so they run side by side (their output is printed whole as each ends); then the web
// size check on that build, the unit + API suite (two workers: vitest.config.ts) with the e2e data
// template made beside it, and the e2e journeys on the same build (E2E_SKIP_BUILD=1).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const outDir = mkdtempSync(join(tmpdir(), 'vl-test-'));
const totals = { passed: 0, failed: 0, skipped: 0 };
const failedSteps = [];
/** Every failed test (or file that failed to run), listed again at the very end: CI keeps only the tail. */
const failures = [];
const started = Date.now();
const since = (t) => `${((Date.now() - t) / 1000).toFixed(0)} s`;

/** Runs a step; `quiet` buffers its output and prints it whole when it ends (steps run side by side). */
function run(label, cmd, args, { quiet = false, env = {} } = {}) {
  const t = Date.now();
  if (!quiet) console.log(`\n▶ ${label}: ${cmd} ${args.join(' ')}`);
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: { ...process.env, ...env },
    });
    let out = '';
    child.stdout?.on('data', (d) => (out += d));
    child.stderr?.on('data', (d) => (out += d));
    child.on('close', (code) => {
      if (quiet) console.log(`\n▶ ${label}: ${cmd} ${args.join(' ')}\n${out.trimEnd()}`);
      console.log(`◀ ${label}: ${code === 0 ? 'ok' : `failed (${code})`} in ${since(t)}`);
      if (code !== 0) failedSteps.push(label);
      resolve(code === 0);
    });
  });
}

/** Resolves to the template's path, or null when it could not be made (the e2e step then makes its own). */
function makeDataTemplate() {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'tests/support/make-data-template.ts'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => {
      const dir = out.trim().split('\n').pop();
      if (code === 0 && dir && existsSync(dir)) return resolve(dir);
      console.log(`(the e2e data template was not made beforehand (${code}); the e2e step makes it)\n${err}`);
      resolve(null);
    });
  });
}

function addVitestResults(file) {
  if (!existsSync(file)) return;
  const json = JSON.parse(readFileSync(file, 'utf8'));
  totals.passed += json.numPassedTests ?? 0;
  totals.failed += json.numFailedTests ?? 0;
  totals.skipped += (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0);
  for (const file of json.testResults ?? []) {
    const name = file.name?.replace(`${process.cwd()}/`, '') ?? '?';
    const failed = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const t of failed) failures.push(`${name} › ${t.fullName}\n${firstLines(t.failureMessages)}`);
    if (!failed.length && file.status === 'failed') failures.push(`${name}\n${firstLines([file.message])}`);
  }
}

/** The head of a failure's message: enough to name the cause without the whole stack. */
function firstLines(messages) {
  const text = (messages ?? []).filter(Boolean).join('\n');
  return text
    .split('\n')
    .slice(0, 12)
    .map((l) => `    ${l}`)
    .join('\n');
}

const [, , built] = await Promise.all([
  run('typecheck', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json'], { quiet: true }),
  run('lint', 'npm', ['run', '--silent', 'lint'], { quiet: true }),
  run('build', 'npm', ['run', 'build'], { quiet: true }),
]);

// Every public page's JavaScript against its budget (scripts/check-web-size.mjs), on the build above.
if (built) await run('web size', 'node', ['scripts/check-web-size.mjs']);

// The e2e step's DATA_DIR template (a first start of the built product: migrations, the admin, the
// signing keys; tests/support/global-e2e.ts) is made while the API suite runs, whose files leave some
// of the two cores idle, instead of alone before the first journey.
const template = built ? makeDataTemplate() : Promise.resolve(null);

// Every project of vitest.config.ts: unit, api-pglite, and api-postgres when PostgreSQL is installed.
const apiJson = join(outDir, 'api.json');
await run('unit + integration', 'npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${apiJson}`,
]);
addVitestResults(apiJson);

// The journeys run on the build made above; without one (the build failed) they are not run.
const e2eJson = join(outDir, 'e2e.json');
if (built) {
  const dir = await template;
  await run(
    'e2e',
    'npx',
    [
      'vitest',
      'run',
      '--config',
      'vitest.e2e.config.ts',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${e2eJson}`,
    ],
    { env: { E2E_SKIP_BUILD: '1', ...(dir ? { E2E_DATA_TEMPLATE: dir } : {}) } },
  );
  if (dir) rmSync(dir, { recursive: true, force: true });
  addVitestResults(e2eJson);
} else {
  failedSteps.push('e2e (not run: no build)');
}

if (failures.length) console.log(`\nFailed tests (${failures.length}):\n${failures.join('\n')}`);
console.log(
  `\nSteps failed: ${failedSteps.length ? failedSteps.join(', ') : 'none'} (${since(started)} in all)`,
);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedSteps.length || totals.failed ? 1 : 0);
