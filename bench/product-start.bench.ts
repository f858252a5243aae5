// `npm run bench -- product-start`: how long the built product takes from `node dist/server/main.js`
// to a healthy `/api/health`, on a copy of a migrated DATA_DIR (the e2e template), as every e2e file
// and most resilience tests start it. Target: median under 3 s on the 2-core machine, the old build's
// time (0e1e02d: 2.9-3.3 s), so a start that loads again what it does not need shows itself.
// BENCH_BASELINE_DIST=<dir> starts another build (e.g. an older commit's `DIST_DIR=/tmp/old npm run
// build`) alternately with this one, so both see the same machine. Results: docs/benchmarks.md, "The
// test suite".
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { DATA_TEMPLATE_ENV, prepareDataTemplate, startProduct } from '../tests/support/product';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const TARGET_MS = 3000;
const builds: [string, string][] = [['this build', process.env.DIST_DIR ?? 'dist']];
if (process.env.BENCH_BASELINE_DIST) builds.push(['baseline', process.env.BENCH_BASELINE_DIST]);

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

const before = load();
process.env[DATA_TEMPLATE_ENV] = await prepareDataTemplate();
const times = new Map<string, number[]>(builds.map(([name]) => [name, []]));
for (let r = 0; r < RUNS + 1; r++) {
  for (const [name, dir] of builds) {
    process.env.DIST_DIR = dir;
    const t = performance.now();
    const product = await startProduct({});
    const ms = performance.now() - t;
    await product.stop();
    // The first start of each build warms the page cache: not counted.
    if (r > 0) times.get(name)?.push(ms);
  }
}
console.log(`${RUNS} starts per build; load average ${before} → ${load()}`);
let met = true;
for (const [name] of builds) {
  const xs = times.get(name) ?? [];
  const m = median(xs);
  console.log(
    `  ${name}: median ${m.toFixed(0)} ms (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`,
  );
  if (name === 'this build' && !(m < TARGET_MS)) met = false;
}
console.log(`median start under ${TARGET_MS} ms: ${met ? 'met' : 'NOT met'}`);
process.exit(met ? 0 : 1);
