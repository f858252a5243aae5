import { describe, expect, it } from 'vitest';
import {
  aggregate,
  comparisonReport,
  dependencyDrift,
  latencyFigures,
  median,
  percentile,
  type RunSummary,
  verdict,
} from './load-compare';

const run = (over: Partial<RunSummary> & Pick<RunSummary, 'build'>): RunSummary => ({
  round: 1,
  seconds: 60,
  requests: 600 * 60,
  rps: 600,
  p50: 70,
  p90: 130,
  p99: 140,
  max: 300,
  errors: 0,
  rssMb: [300, 400],
  endpoints: [
    { label: 'POST /login', count: 100, p50: 110, p99: 200 },
    { label: 'GET /api/samples', count: 1000, p50: 60, p99: 120 },
  ],
  loadAvg: 0.5,
  ...over,
});

describe('percentile and median', () => {
  it('takes the nearest rank, as the single-build table always has', () => {
    const xs = Array.from({ length: 100 }, (_, i) => 100 - i); // 100 … 1, unsorted
    expect(percentile(xs, 50)).toBe(51);
    expect(percentile(xs, 99)).toBe(100);
    expect(percentile([], 50)).toBeNaN();
  });
  it('averages the two middle values of an even count', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([600, 700])).toBe(650);
    expect(median([])).toBeNaN();
  });
});

describe('latencyFigures', () => {
  it('splits per endpoint, sorted by label', () => {
    const f = latencyFigures([
      { label: 'b', ms: 10 },
      { label: 'a', ms: 30 },
      { label: 'b', ms: 20 },
    ]);
    expect(f.max).toBe(30);
    expect(f.endpoints).toEqual([
      { label: 'a', count: 1, p50: 30, p99: 30 },
      { label: 'b', count: 2, p50: 20, p99: 20 },
    ]);
  });
});

describe('aggregate', () => {
  it('takes medians over rounds and the RSS range over all runs (zero readings left out)', () => {
    const a = aggregate([
      run({ build: 'current', rps: 600, p99: 150, rssMb: [0, 310, 500] }),
      run({
        build: 'current',
        round: 2,
        rps: 640,
        p99: 130,
        rssMb: [290, 450],
        endpoints: [{ label: 'POST /login', count: 1, p50: 1, p99: 300 }],
      }),
    ]);
    expect(a.rps).toBe(620);
    expect(a.p99).toBe(140);
    expect([a.rssMin, a.rssMax]).toEqual([290, 500]);
    expect(a.endpointP99.get('POST /login')).toBe(250);
    expect(a.endpointP99.get('GET /api/samples')).toBe(120); // only in round 1
  });
});

describe('verdict', () => {
  const baseline = [
    run({ build: 'baseline', rps: 700, p99: 140 }),
    run({ build: 'baseline', rps: 700, p99: 140 }),
  ];

  it('is no regression within 5 % of throughput and 10 % of p99', () => {
    const v = verdict([run({ build: 'current', rps: 666, p99: 153 })], baseline);
    expect(v.regression).toBe(false);
    expect(v.reasons).toEqual([]);
  });
  it('is a regression when throughput is more than 5 % below', () => {
    const v = verdict([run({ build: 'current', rps: 664, p99: 140 })], baseline);
    expect(v.regression).toBe(true);
    expect(v.reasons).toEqual([expect.stringContaining('throughput −5.1 %')]);
  });
  it('is a regression when p99 is more than 10 % above', () => {
    const v = verdict([run({ build: 'current', rps: 700, p99: 155 })], baseline);
    expect(v.regression).toBe(true);
    expect(v.reasons).toEqual([expect.stringContaining('p99 +10.7 %')]);
  });
  it('judges by the median, not by one lucky round', () => {
    const current = [
      run({ build: 'current', rps: 760, p99: 120 }),
      run({ build: 'current', rps: 600, p99: 160 }),
      run({ build: 'current', rps: 610, p99: 165 }),
    ];
    const v = verdict(current, baseline);
    expect(v.current.rps).toBe(610);
    expect(v.current.p99).toBe(160);
    expect(v.regression).toBe(true);
    expect(v.reasons).toHaveLength(2);
  });
  it('is a regression when the current build fails requests', () => {
    const v = verdict([run({ build: 'current', rps: 800, p99: 100, errors: 3 })], baseline);
    expect(v.regression).toBe(true);
    expect(v.reasons).toEqual(['3 failed requests (errors, timeouts or non-2xx)']);
  });
  it('states the absolute targets apart from the verdict', () => {
    const faster = verdict([run({ build: 'current', rps: 701, p99: 149 })], baseline);
    expect([faster.p99TargetMet, faster.throughputTargetMet]).toEqual([true, true]);
    // No regression (within the margins), but neither target met.
    const close = verdict([run({ build: 'current', rps: 690, p99: 150 })], baseline);
    expect(close.regression).toBe(false);
    expect([close.p99TargetMet, close.throughputTargetMet]).toEqual([false, false]);
  });
  it('needs runs of both builds', () => {
    expect(() => verdict([], baseline)).toThrow(/at least one run/);
  });
});

describe('comparisonReport', () => {
  it('prints every run, both medians, the verdict and the targets', () => {
    const runs = [
      run({ build: 'current', rps: 600, p99: 200 }),
      run({ build: 'baseline', rps: 700, p99: 140 }),
      run({ build: 'baseline', round: 2, rps: 690, p99: 146 }),
      run({ build: 'current', round: 2, rps: 620, p99: 210 }),
    ];
    const { lines, verdict: v } = comparisonReport(runs, {
      current: 'current',
      baseline: 'baseline f95a32c',
    });
    expect(v.regression).toBe(true);
    const text = lines.join('\n');
    expect(lines[0]).toBe(
      '| build | run | load avg | req/s | p50 / p90 / p99 ms | errors | list p99 | login p99 | RSS MB |',
    );
    expect(lines.filter((l) => l.startsWith('| current | '))).toHaveLength(2);
    expect(lines.filter((l) => l.startsWith('| baseline f95a32c | '))).toHaveLength(2);
    expect(text).toContain(
      '| **current, median of 2** | | | **610** | 70 / 130 / **205** | 0 | 120 | 200 | 300–400 |',
    );
    expect(text).toContain('| **baseline f95a32c, median of 2** | | | **695** |');
    expect(text).toContain('Verdict: regression (throughput −12.2 %');
    expect(text).toContain('Target p99 < 150 ms: NOT met (205 ms)');
    expect(text).toContain("Target throughput ≥ the baseline's: NOT met (610 against 695 req/s)");
  });
  it('says "no regression" and "met" when the current build is as good', () => {
    const { lines } = comparisonReport(
      [run({ build: 'current', rps: 720, p99: 120 }), run({ build: 'baseline', rps: 700, p99: 140 })],
      { current: 'current', baseline: 'baseline x' },
    );
    expect(lines).toContain(
      'Verdict: no regression (limits: throughput at most 5 % below, p99 at most 10 % above the baseline)',
    );
    expect(lines.at(-1)).toMatch(/^Target p99 < 150 ms: met .*Target throughput ≥ the baseline's: met /);
  });
});

describe('dependencyDrift', () => {
  it('lists packages missing here and packages at another version; optional and linked ones are not missing', () => {
    const installed: Record<string, string> = {
      'node_modules/fastify': '5.1.0',
      'node_modules/pg': '8.13.0',
      'node_modules/a/node_modules/b': '2.0.0',
    };
    const drift = dependencyDrift(
      {
        '': { version: '0.1.0' },
        'node_modules/fastify': { version: '5.1.0' },
        'node_modules/pg': { version: '8.12.0' },
        'node_modules/a/node_modules/b': { version: '1.0.0' },
        'node_modules/@mantine/dropzone': { version: '7.0.0' },
        'node_modules/@esbuild/darwin-arm64': { version: '0.24.0', optional: true },
        'node_modules/local': { link: true },
      },
      (path) => installed[path],
    );
    expect(drift.missing).toEqual(['@mantine/dropzone@7.0.0']);
    expect(drift.mismatched).toEqual([
      'pg: 8.12.0 wanted, 8.13.0 installed',
      'b: 1.0.0 wanted, 2.0.0 installed',
    ]);
  });
});
