// Enforces the import direction of docs/architecture.md: common → nothing but zod; server → common; web → common;
// web/components never imports web/features; a feature never imports another feature.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const sourceExt = /\.(ts|tsx|mjs|js)$/;
const importRe =
  /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name === 'migrations') continue;
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else if (sourceExt.test(name)) out.push(full);
  }
  return out;
}

const room = (file) => relative(root, file).split(sep);
const problems = [];
for (const top of ['common', 'server', 'web']) {
  for (const file of walk(join(root, top))) {
    const text = readFileSync(file, 'utf8');
    const [fromRoom, sub, feature] = room(file);
    for (const m of text.matchAll(importRe)) {
      const spec = m[1] ?? m[2] ?? m[3];
      if (!spec) continue;
      const where = `${relative(root, file)} imports '${spec}'`;
      if (!spec.startsWith('.')) {
        if (fromRoom === 'common' && spec !== 'zod' && !(spec === 'vitest' && /\.test\.tsx?$/.test(file)))
          problems.push(`${where}: common/ may import only zod`);
        continue;
      }
      const [toRoom, toSub, toFeature] = room(resolve(dirname(file), spec));
      if (fromRoom === 'common' && toRoom !== 'common')
        problems.push(`${where}: common/ imports only common/`);
      if (fromRoom === 'server' && toRoom === 'web') problems.push(`${where}: server/ never imports web/`);
      if (fromRoom === 'web' && toRoom === 'server') problems.push(`${where}: web/ never imports server/`);
      if (fromRoom === 'web' && sub === 'components' && toSub === 'features')
        problems.push(`${where}: web/components never imports a feature`);
      if (fromRoom === 'web' && sub === 'features' && toSub === 'features' && toFeature !== feature)
        problems.push(`${where}: a feature never imports another feature`);
      if (fromRoom === 'web' && (sub === 'lib' || sub === 'components') && toSub === 'app')
        problems.push(`${where}: web/${sub} never imports web/app`);
    }
  }
}
if (problems.length) {
  console.error(
    `Import direction violations (docs/architecture.md):\n${problems.map((p) => `  ${p}`).join('\n')}`,
  );
  process.exit(1);
}
console.log('import direction: ok');
