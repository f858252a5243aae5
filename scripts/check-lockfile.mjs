// `npm run lint`: package-lock.json checked against package.json without any network (scripts/lockfile.mjs).
import { readFileSync } from 'node:fs';
import { lockfileProblems } from './lockfile.mjs';

const read = (name) => JSON.parse(readFileSync(new URL(`../${name}`, import.meta.url), 'utf8'));
const problems = lockfileProblems(read('package.json'), read('package-lock.json'));
if (problems.length) {
  console.error(`package-lock.json: ${problems.length} problem(s)`);
  for (const p of problems.slice(0, 50)) console.error(`  ${p}`);
  process.exit(1);
}
