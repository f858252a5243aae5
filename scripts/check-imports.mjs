// Enforces the import direction of docs/architecture.md: common → nothing but zod; server → common; web → common;
// web/components never imports web/features; a feature never imports another feature. Inside server/: the
// lower layers (db, storage, jobs, mail, audit, plugins, policies, pdf) never import a module, app.ts or
// app-deps.ts, and the modules' imports of each other never form a cycle (two modules that need each other
// share a piece that belongs in a lower layer). Test files are checked for the web and common rules only.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const sourceExt = /\.(ts|tsx|mjs|js)$/;
const importRe =
  /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;

/** server/ folders below the modules: they serve every module and know none. */
export const SERVER_LOWER_LAYERS = ['db', 'storage', 'jobs', 'mail', 'audit', 'plugins', 'policies', 'pdf'];

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name === 'migrations') continue;
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else if (sourceExt.test(name)) out.push(full);
  }
  return out;
}

const isTest = (path) => /\.test\.(ts|tsx|mjs)$/.test(path);

/**
 * The problems of one import inside server/ (paths relative to the repository, '/'-separated); the
 * module-to-module edges are collected separately for the cycle check.
 */
export function serverLayerProblem(from, to) {
  const [, sub] = from.split('/');
  const [, toSub, toModule] = to.split('/');
  if (isTest(from)) return null;
  if (SERVER_LOWER_LAYERS.includes(sub ?? '')) {
    if (toSub === 'modules')
      return `server/${sub} never imports a module (server/modules/${toModule}): move the piece it needs down to a lower layer`;
    if (toSub === 'app.ts' || toSub === 'app-deps.ts') return `server/${sub} never imports server/${toSub}`;
  }
  if (sub === 'modules' && toSub === 'app.ts')
    return 'a module never imports server/app.ts (take AppDeps from server/app-deps.ts)';
  return null;
}

/** The cycles of a directed graph (Map name → Set of names), each once, as [a, b, …, a]. */
export function findCycles(graph) {
  const cycles = [];
  const seen = new Set();
  const names = [...graph.keys()].sort();
  for (const start of names) {
    // Cycles through `start` that use only names after it: each cycle is reported from its smallest name.
    const stack = [[start, [start]]];
    while (stack.length) {
      const [node, path] = stack.pop();
      for (const next of [...(graph.get(node) ?? [])].sort()) {
        if (next === start) {
          const key = path.join('>');
          if (!seen.has(key)) {
            seen.add(key);
            cycles.push([...path, start]);
          }
        } else if (next > start && !path.includes(next) && path.length < 8) {
          stack.push([next, [...path, next]]);
        }
      }
    }
  }
  return cycles;
}

/** Every problem in the repository at `root`. */
export function importProblems(root) {
  const room = (file) => relative(root, file).split(sep);
  const problems = [];
  const moduleGraph = new Map();
  const edgeFiles = new Map();
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
        const target = resolve(dirname(file), spec);
        const [toRoom, toSub, toFeature] = room(target);
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
        if (fromRoom === 'server' && toRoom === 'server') {
          const from = relative(root, file).split(sep).join('/');
          const problem = serverLayerProblem(from, relative(root, target).split(sep).join('/'));
          if (problem) problems.push(`${where}: ${problem}`);
          if (sub === 'modules' && toSub === 'modules' && toFeature !== feature && !isTest(from)) {
            if (!moduleGraph.has(feature)) moduleGraph.set(feature, new Set());
            moduleGraph.get(feature).add(toFeature);
            const key = `${feature}>${toFeature}`;
            if (!edgeFiles.has(key)) edgeFiles.set(key, from);
          }
        }
      }
    }
  }
  for (const cycle of findCycles(moduleGraph)) {
    const steps = cycle.slice(1).map((to, i) => `${edgeFiles.get(`${cycle[i]}>${to}`)} → ${to}`);
    problems.push(
      `server modules import each other: ${cycle.join(' → ')} (${steps.join('; ')}): move the shared piece to a lower layer (server/db, …) or let one side pass it in`,
    );
  }
  return problems;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const problems = importProblems(resolve(dirname(fileURLToPath(import.meta.url)), '..'));
  if (problems.length) {
    console.error(
      `Import direction violations (docs/architecture.md):\n${problems.map((p) => `  ${p}`).join('\n')}`,
    );
    process.exit(1);
  }
  console.log('import direction: ok');
}
