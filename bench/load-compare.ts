// The pure part of `npm run bench:load`'s comparison mode (bench/load.ts): a run's figures from its
// timed requests, the medians over rounds, the verdict against a baseline build, the printed table,
// and the check that a baseline commit can be built with this checkout's node_modules. No I/O here,
// so bench/load-compare.test.ts can check every rule.

/** One timed request of the mix. */
export type Timed = { label: string; ms: number };

export type EndpointFigures = { label: string; count: number; p50: number; p99: number };

/** One measured run of one build. */
export type RunSummary = {
  build: 'current' | 'baseline';
  round: number;
  seconds: number;
  requests: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Connection errors + timeouts + non-2xx answers. */
  errors: number;
  rssMb: number[];
  endpoints: EndpointFigures[];
  /** The machine's 1-minute load average just before the run (the machine may be shared). */
  loadAvg: number;
};

/** The nearest-rank percentile the single-build table has always printed (NaN for no values). */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const mid = Math.floor(n / 2);
  return n % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** The latency figures of one run, overall and per endpoint (endpoints sorted by label). */
export function latencyFigures(samples: readonly Timed[]): {
  p50: number;
  p90: number;
  p99: number;
  max: number;
  endpoints: EndpointFigures[];
} {
  const all = samples.map((s) => s.ms);
  const byLabel = new Map<string, number[]>();
  for (const s of samples) {
    const xs = byLabel.get(s.label);
    if (xs) xs.push(s.ms);
    else byLabel.set(s.label, [s.ms]);
  }
  return {
    p50: percentile(all, 50),
    p90: percentile(all, 90),
    p99: percentile(all, 99),
    max: all.length ? Math.max(...all) : Number.NaN,
    endpoints: [...byLabel]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([label, xs]) => ({ label, count: xs.length, p50: percentile(xs, 50), p99: percentile(xs, 99) })),
  };
}

/** A build's figures over its rounds: medians, and the RSS range over all its runs. */
export type BuildAggregate = {
  runs: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  errors: number;
  rssMin: number;
  rssMax: number;
  endpointP99: Map<string, number>;
};

export function aggregate(runs: readonly RunSummary[]): BuildAggregate {
  const labels = new Set(runs.flatMap((r) => r.endpoints.map((e) => e.label)));
  const rss = runs.flatMap((r) => r.rssMb).filter((mb) => mb > 0);
  return {
    runs: runs.length,
    rps: median(runs.map((r) => r.rps)),
    p50: median(runs.map((r) => r.p50)),
    p90: median(runs.map((r) => r.p90)),
    p99: median(runs.map((r) => r.p99)),
    errors: runs.reduce((n, r) => n + r.errors, 0),
    rssMin: rss.length ? Math.min(...rss) : Number.NaN,
    rssMax: rss.length ? Math.max(...rss) : Number.NaN,
    endpointP99: new Map(
      [...labels].map((label) => [
        label,
        median(runs.flatMap((r) => r.endpoints.filter((e) => e.label === label).map((e) => e.p99))),
      ]),
    ),
  };
}

/** A regression: median throughput more than 5 % below the baseline's, or median p99 more than 10 % above. */
export const MAX_THROUGHPUT_DROP = 0.05;
export const MAX_P99_RISE = 0.1;
/** The issue's absolute latency target for the session mix. */
export const P99_TARGET_MS = 150;

export type Verdict = {
  current: BuildAggregate;
  baseline: BuildAggregate;
  regression: boolean;
  /** Why it is a regression (empty when it is not). */
  reasons: string[];
  throughputChange: number;
  p99Change: number;
  p99TargetMet: boolean;
  throughputTargetMet: boolean;
};

export function verdict(current: readonly RunSummary[], baseline: readonly RunSummary[]): Verdict {
  if (current.length === 0 || baseline.length === 0)
    throw new Error('a comparison needs at least one run of each build');
  const cur = aggregate(current);
  const base = aggregate(baseline);
  const throughputChange = cur.rps / base.rps - 1;
  const p99Change = cur.p99 / base.p99 - 1;
  const reasons: string[] = [];
  if (throughputChange < -MAX_THROUGHPUT_DROP)
    reasons.push(
      `throughput ${pctText(throughputChange)} (more than ${MAX_THROUGHPUT_DROP * 100} % below the baseline)`,
    );
  if (p99Change > MAX_P99_RISE)
    reasons.push(`p99 ${pctText(p99Change)} (more than ${MAX_P99_RISE * 100} % above the baseline)`);
  if (cur.errors > 0) reasons.push(`${cur.errors} failed requests (errors, timeouts or non-2xx)`);
  return {
    current: cur,
    baseline: base,
    regression: reasons.length > 0,
    reasons,
    throughputChange,
    p99Change,
    p99TargetMet: cur.p99 < P99_TARGET_MS,
    throughputTargetMet: cur.rps >= base.rps,
  };
}

const pctText = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)} %`;
const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : '–');

/** Short column names for the mix's endpoints (bench/load.ts's labels); others keep their label. */
const SHORT: Record<string, string> = {
  'POST /login': 'login',
  'GET /api/auth/user': 'auth/user',
  'GET /api/samples': 'list',
  'GET /api/samples/:id': 'sample page',
  'GET /api/reports/verify/:code': 'verify',
  'GET /api/reports/verify/:code (lower case)': 'verify lc',
  'POST /api/samples (multipart, 1 photo)': 'submission',
};

/** The comparison as markdown: one table (every run, then each build's medians), the verdict and the targets. */
export function comparisonReport(
  runs: readonly RunSummary[],
  names: { current: string; baseline: string },
): { lines: string[]; verdict: Verdict } {
  const current = runs.filter((r) => r.build === 'current');
  const baseline = runs.filter((r) => r.build === 'baseline');
  const v = verdict(current, baseline);
  const labels = [...new Set(runs.flatMap((r) => r.endpoints.map((e) => e.label)))].sort();
  const head = [
    'build',
    'run',
    'load avg',
    'req/s',
    'p50 / p90 / p99 ms',
    'errors',
    ...labels.map((l) => `${SHORT[l] ?? l} p99`),
    'RSS MB',
  ];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  for (const r of runs) {
    const rss = r.rssMb.filter((mb) => mb > 0);
    lines.push(
      `| ${names[r.build]} | ${r.round} | ${r.loadAvg.toFixed(1)} | ${r.rps.toFixed(0)} | ${ms(r.p50)} / ${ms(r.p90)} / ${ms(r.p99)} | ${r.errors} | ${labels
        .map((l) => ms(r.endpoints.find((e) => e.label === l)?.p99 ?? Number.NaN))
        .join(' | ')} | ${rss.length ? `${Math.min(...rss)}–${Math.max(...rss)}` : '–'} |`,
    );
  }
  for (const build of ['current', 'baseline'] as const) {
    const a = v[build];
    lines.push(
      `| **${names[build]}, median of ${a.runs}** | | | **${a.rps.toFixed(0)}** | ${ms(a.p50)} / ${ms(a.p90)} / **${ms(a.p99)}** | ${a.errors} | ${labels
        .map((l) => ms(a.endpointP99.get(l) ?? Number.NaN))
        .join(' | ')} | ${Number.isFinite(a.rssMin) ? `${a.rssMin}–${a.rssMax}` : '–'} |`,
    );
  }
  lines.push(
    '',
    `Throughput ${v.current.rps.toFixed(0)} against ${v.baseline.rps.toFixed(0)} req/s (${pctText(v.throughputChange)}), ` +
      `p99 ${ms(v.current.p99)} against ${ms(v.baseline.p99)} ms (${pctText(v.p99Change)}).`,
    v.regression
      ? `Verdict: regression (${v.reasons.join('; ')})`
      : `Verdict: no regression (limits: throughput at most ${MAX_THROUGHPUT_DROP * 100} % below, p99 at most ${MAX_P99_RISE * 100} % above the baseline)`,
    `Target p99 < ${P99_TARGET_MS} ms: ${v.p99TargetMet ? 'met' : 'NOT met'} (${ms(v.current.p99)} ms). ` +
      `Target throughput ≥ the baseline's: ${v.throughputTargetMet ? 'met' : 'NOT met'} (${v.current.rps.toFixed(0)} against ${v.baseline.rps.toFixed(0)} req/s).`,
  );
  return { lines, verdict: v };
}

/** A package-lock.json `packages` entry. */
export type LockEntry = { version?: string; optional?: boolean; link?: boolean };

/**
 * Which packages a baseline's lockfile pins that this checkout's node_modules lacks or holds at
 * another version. `installed(path)` answers the version found at e.g. "node_modules/fastify".
 * Optional packages that are not installed (another platform's binaries) are not missing.
 */
export function dependencyDrift(
  lockPackages: Record<string, LockEntry>,
  installed: (path: string) => string | undefined,
): { missing: string[]; mismatched: string[] } {
  const missing: string[] = [];
  const mismatched: string[] = [];
  for (const [path, entry] of Object.entries(lockPackages)) {
    if (!path.startsWith('node_modules/') || entry.link || !entry.version) continue;
    const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const have = installed(path);
    if (have === undefined) {
      if (!entry.optional) missing.push(`${name}@${entry.version}`);
    } else if (have !== entry.version) mismatched.push(`${name}: ${entry.version} wanted, ${have} installed`);
  }
  return { missing, mismatched };
}
