// What the verification benches share (bench/verify.bench.ts, bench/verification-10m.bench.ts):
// servers under test in their own processes (bench/verify-target.ts, bundled as production bundles
// the server), autocannon load against GET /api/reports/verify/{code}, and the load average.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';

export type Result = {
  requests: { average: number; total: number };
  latency: { p99: number; p50: number; average: number };
  non2xx: number;
  errors: number;
};
type Options = {
  url: string;
  connections: number;
  duration: number;
  requests: { setupRequest: (req: { path: string; headers?: Record<string, string> }) => unknown }[];
};
const autocannon = createRequire(import.meta.url)('autocannon') as (opts: Options) => Promise<Result>;

/**
 * `connections` concurrent clients for `seconds`, each request verifying `nextCode()`. With
 * `spoofAddresses`, each request comes from its own X-Forwarded-For address (the rate limiter's
 * worst case: a new entry per request).
 */
export function loadVerify(
  url: string,
  nextCode: () => string,
  opts: { connections: number; seconds: number; spoofAddresses?: boolean },
): Promise<Result> {
  let n = 0;
  return autocannon({
    url,
    connections: opts.connections,
    duration: opts.seconds,
    requests: [
      {
        setupRequest: (req) => {
          req.path = `/api/reports/verify/${nextCode()}`;
          if (opts.spoofAddresses) {
            n = (n + 1) & 0xffffff;
            req.headers = {
              ...(req.headers ?? {}),
              'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
            };
          }
          return req;
        },
      },
    ],
  });
}

/** bench/verify-target.ts bundled as scripts/build-server.mjs bundles the server; its path. */
export async function buildTarget(): Promise<string> {
  const outfile = join('dist', 'bench', 'verify-target.mjs');
  await build({
    entryPoints: ['bench/verify-target.ts'],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  return outfile;
}

export const loadAverage = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');

export type Target = {
  url: string;
  pid: number;
  close(): Promise<void>;
  /** Requests served and CPU µs spent since listening, as the target reports when it stops. */
  cpu?: { requests: number; micros: number };
};

/**
 * Starts bench/verify-target.ts in its own process with `env` (MODE, DATABASE_URL, RATE_LIMITS, …)
 * and resolves once it listens. The targets run as production runs the server: bundled by esbuild
 * (tsx would add its own helpers); BENCH_TSX=1 runs them from source instead. BENCH_NODE_FLAGS
 * adds node flags.
 */
export async function startTarget(env: Record<string, string>): Promise<Target> {
  const args = [
    ...(process.env.BENCH_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean),
    ...(process.env.BENCH_TSX === '1'
      ? ['--import', 'tsx', 'bench/verify-target.ts']
      : [await buildTarget()]),
  ];
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return new Promise<Target>((resolve, reject) => {
    let out = '';
    const target: Target = {
      url: '',
      pid: child.pid ?? 0,
      close: async () => {
        if (child.exitCode === null) child.kill('SIGTERM');
        await exited;
      },
    };
    child.stdout?.on('data', (d) => {
      out += d;
      const m = /LISTENING (\d+)/.exec(out);
      if (m && !target.url) {
        target.url = `http://127.0.0.1:${m[1]}`;
        resolve(target);
      }
      const c = /CPU (\d+) (\d+)/.exec(out);
      if (c) target.cpu = { requests: Number(c[1]), micros: Number(c[2]) };
    });
    child.on('exit', (code) => reject(new Error(`target exited (${code})`)));
  });
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const k = Math.floor(s.length / 2);
  return s.length % 2 ? (s[k] ?? 0) : ((s[k - 1] ?? 0) + (s[k] ?? 0)) / 2;
};
