// Writes tests/durations.json, the per-file durations tests/support/sequencer.ts orders files by
// (longest first), from what vitest recorded of the last runs on this machine (its cache in
// node_modules/.vite/vitest). Run it after a full `npm test` and `npm run test:resilience` on a
// machine like CI's, and commit the file; rounded to 0.1 s, so a refresh changes only real moves.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const cache = 'node_modules/.vite/vitest';
const out = {};
for (const dir of existsSync(cache) ? readdirSync(cache) : []) {
  const file = join(cache, dir, 'results.json');
  if (!existsSync(file)) continue;
  for (const [key, result] of JSON.parse(readFileSync(file, 'utf8')).results) {
    if (result?.duration) out[key] = Math.round(result.duration / 100) * 100;
  }
}
const sorted = Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
writeFileSync('tests/durations.json', `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`tests/durations.json: ${Object.keys(sorted).length} files`);
