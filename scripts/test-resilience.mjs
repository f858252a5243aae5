// `npm run test:resilience`: the fault, restart and multi-instance suite, closing with the same
// plain summary line as `npm test` (`N passed, N failed, N skipped`).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const out = join(mkdtempSync(join(tmpdir(), 'vl-res-')), 'resilience.json');
const r = spawnSync(
  'npx',
  [
    'vitest',
    'run',
    '--config',
    'vitest.resilience.config.ts',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${out}`,
    ...process.argv.slice(2),
  ],
  { stdio: 'inherit', env: process.env },
);
let passed = 0;
let failed = 0;
let skipped = 0;
if (existsSync(out)) {
  const json = JSON.parse(readFileSync(out, 'utf8'));
  passed = json.numPassedTests ?? 0;
  failed = json.numFailedTests ?? 0;
  skipped = (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0);
}
console.log(`\nresilience: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(r.status === 0 && failed === 0 ? 0 : 1);
