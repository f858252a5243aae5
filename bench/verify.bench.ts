// `npm run bench -- verify`: GET /api/reports/verify/{code} against 100,000 issued reports on a
// throwaway PostgreSQL, side by side in the same run with a minimal `node:http` + `pg` handler that
// runs the very same SQL as a named prepared statement. Both with rate limits off (the ratio), then
// the app with rate limits on (each request from its own X-Forwarded-For address, so the limiter
// does its bookkeeping but never refuses) to show what the limiter costs. Every report is a full
// valuation report (identification, verdicts, value, texts, six photos), so both run the SQL with
// the content the answer is built from. Prints the load average and a ready-to-paste row; exits 1
// when the median round's ratio misses the target.
// Results go to the "Report verification" section of docs/benchmarks.md.
import { randomInt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import pg from 'pg';
import { issueReportBody } from '../common/contracts/reports';
import type { VerificationResponse } from '../common/contracts/verification';
import { REPORT_CODE_ALPHABET } from '../common/domain/reports';
import { reportContentOf } from '../server/modules/reports/issue-report';
import { valuationReport } from '../tests/support/factories';
import { openPostgres } from '../server/db/client';
import { startPostgresCluster } from '../tests/support/postgres';
import { clusterCpuMicros, machineTicks, ownCpuMicros, processCpuMicros } from './process-cpu';

const REPORTS = Number(process.env.BENCH_REPORTS ?? 100_000);
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
const CONNECTIONS = 10;
const POOL = 10;
const TARGET_RATIO = 0.85;
const PHOTOS = 6;

type Result = {
  requests: { average: number; total: number };
  latency: { p99: number; p50: number };
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

function randomCode(): string {
  let s = '';
  for (let i = 0; i < 8; i++) s += REPORT_CODE_ALPHABET[randomInt(REPORT_CODE_ALPHABET.length)];
  return s;
}

/**
 * What each seeded report states, as issuing stores it (reportContentOf): a painting's valuation
 * with its basis, authenticity and condition with their texts, the six identification fields, a
 * summary, and six photos. Only the photo ids differ between reports.
 */
const CONTENT = reportContentOf(
  issueReportBody.parse(
    valuationReport([], {
      summary:
        '<p>A river landscape in good order, consistent with the attribution. The canvas was relined once; the stretcher is original.</p>',
    }),
  ),
);

async function seed(client: pg.Client): Promise<string[]> {
  const codes = new Set<string>();
  while (codes.size < REPORTS) codes.add(randomCode());
  const list = [...codes];
  const { rows } = await client.query(
    `insert into users (email, password_hash, first_name, last_name, role) values
       ('owner@bench.lab','x','Olivia','Bennett','user'), ('staff@bench.lab','x','Eleanor','Whitfield','staff')
     returning id`,
  );
  const [owner, staff] = rows.map((r) => r.id as number);
  const CHUNK = 20_000;
  for (let at = 0; at < list.length; at += CHUNK) {
    const chunk = list.slice(at, at + CHUNK);
    // Each report: its sample, six photos with their copies made (as the photo pipeline leaves
    // them), two elements, and revision 1 whose content names those photos.
    await client.query(
      `with s as (
         insert into samples (user_id, submitter_name, submitter_email, item_name, category, description, status,
           assigned_staff_id, report_code, report_generated, report_generated_at, report_generated_by)
         select $1, 'Olivia Bennett', 'owner@bench.lab', 'Item ' || c, 'artwork-paintings', 'A test item', 'completed',
           $2, c, true, now(), $2
         from unnest($3::text[]) as c
         returning id, report_code),
       f as (
         insert into sample_files (sample_id, file_name, original_name, file_type, file_size, file_category, copies_state)
         select s.id, s.report_code || '-' || n || '.jpg', 'view-' || n || '.jpg', 'image/jpeg', 1800000, 'photo', 'ready'
         from s, generate_series(1, ${PHOTOS}) as n
         returning id, sample_id),
       p as (select sample_id, jsonb_agg(id order by id) as ids from f group by sample_id),
       e as (
         insert into report_elements (sample_id, element, percentage, purity, quality)
         select s.id, x.element, x.pct, x.purity, x.quality from s,
           (values ('Gold', 75.00, '18k', 'Excellent'), ('Silver', 12.50, null, 'Good')) as x(element, pct, purity, quality)
         returning 1)
       insert into report_revisions (sample_id, report_code, revision, storage_key, sha256, byte_size, issued_by, content)
       select s.id, s.report_code, 1, 'reports/' || s.report_code || '-r1.pdf', repeat('0', 64), 2600000, $2,
         $4::jsonb || jsonb_build_object('photoIds', p.ids)
       from s join p on p.sample_id = s.id`,
      [owner, staff, chunk, JSON.stringify(CONTENT)],
    );
  }
  // A settled database before anything is timed: every row's hint bits set and the visibility map
  // written (vacuum), statistics fresh (analyze), and the seed's dirty pages on disk (checkpoint), so
  // neither server's rounds pay for the seed's after-effects.
  await client.query('vacuum (analyze)');
  await client.query('checkpoint');
  return list;
}

/** CPU time per answered request (µs) in each process the answer costs. */
type CpuShare = { server: number; database: number; generator: number };
type Measured = Result & { cpu: CpuShare };

async function load(url: string, codes: string[], spoofAddresses = false): Promise<Result> {
  let i = randomInt(codes.length);
  return autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION_S,
    requests: [
      {
        setupRequest: (req) => {
          i = (i + 1) % codes.length;
          req.path = `/api/reports/verify/${codes[i]}`;
          if (spoofAddresses)
            req.headers = {
              ...(req.headers ?? {}),
              'x-forwarded-for': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
            };
          return req;
        },
      },
    ],
  });
}

/** bench/verify-target.ts bundled as scripts/build-server.mjs bundles the server; its path. */
async function buildTarget(): Promise<string> {
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

const loadAverage = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');

async function main() {
  const loadAtStart = loadAverage();
  const cluster = await startPostgresCluster(
    (process.env.BENCH_PG_SETTINGS ?? '').split(/\s+/).filter(Boolean),
  );
  const dataDir = mkdtempSync(join(tmpdir(), 'vl-bench-verify-'));
  const servers: { close(): Promise<void> }[] = [];
  try {
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query('create database bench');
    await admin.end();
    const url = cluster.urlFor('bench');
    const database = await openPostgres(url, { max: POOL });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const t0 = Date.now();
    const codes = await seed(client);
    await client.end();
    const [size] = await database.queryTextRows(
      'bench_size',
      "select pg_size_pretty(pg_database_size(current_database())), current_setting('shared_buffers')",
      [],
    );
    console.log(
      `seeded ${codes.length} issued reports in ${((Date.now() - t0) / 1000).toFixed(1)} s (database ${size?.[0]}, shared_buffers ${size?.[1]})`,
    );

    // Each server under test runs in its own process (bench/verify-target.ts), so the load
    // generator in this process never steals its event loop. BENCH_CPU_PROFILE_DIR=dir writes a V8
    // CPU profile of the minimal handler, the app and the app with rate limits on into dir when they stop.
    const profileDir = process.env.BENCH_CPU_PROFILE_DIR;
    /** Each target's CPU time and requests served, reported when it stops. */
    const cpu = new Map<string, { requests: number; micros: number }>();
    const pidOf = new Map<string, number>();
    const nameOf = new Map<string, string>();
    /**
     * One load run, with the CPU time it cost per answered request: in the server's process, in
     * PostgreSQL (every backend: the lookup, and the app's verification log) and in the load generator
     * (this process: sending, and parsing each answer's headers and body).
     */
    const measure = async (target: string, spoofAddresses = false): Promise<Measured> => {
      const pid = pidOf.get(target) ?? 0;
      const server0 = processCpuMicros(pid);
      const database0 = clusterCpuMicros(cluster.dataDir);
      const generator0 = ownCpuMicros();
      const machine0 = machineTicks();
      const result = await load(target, codes, spoofAddresses);
      const n = Math.max(1, result.requests.total);
      const machine = machineTicks();
      const busy = machine.busy - machine0.busy;
      const measured = {
        ...result,
        cpu: {
          server: (processCpuMicros(pid) - server0) / n,
          database: (clusterCpuMicros(cluster.dataDir) - database0) / n,
          generator: (ownCpuMicros() - generator0) / n,
        },
      };
      // Each load run as it went: how busy the machine's cores were (under 100 % means the answers
      // waited on something other than CPU) and each process's CPU per answer.
      const c = measured.cpu;
      console.log(
        `  ${(nameOf.get(target) ?? target).padEnd(8)} ${result.requests.average.toFixed(0).padStart(6)} req/s, cores ${((100 * busy) / Math.max(1, busy + machine.idle - machine0.idle)).toFixed(0)} % busy, µs per answer ${c.server.toFixed(0)} + ${c.database.toFixed(0)} + ${c.generator.toFixed(0)} = ${(c.server + c.database + c.generator).toFixed(0)}`,
      );
      return measured;
    };
    // The targets run as production runs the server: bundled by esbuild with the options of
    // scripts/build-server.mjs (tsx would add its own helpers, e.g. a name-keeping call for every
    // closure the code creates). BENCH_TSX=1 runs them from source through tsx instead.
    const targetArgs = [
      ...(process.env.BENCH_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean),
      ...(process.env.BENCH_TSX === '1'
        ? ['--import', 'tsx', 'bench/verify-target.ts']
        : [await buildTarget()]),
    ];
    const startTarget = (name: string, env: Record<string, string>, profileName?: string) =>
      new Promise<string>((resolvePort, reject) => {
        const child = spawn(process.execPath, targetArgs, {
          env: {
            ...process.env,
            DATABASE_URL: url,
            ...env,
            BENCH_CPU_PROFILE: profileDir && profileName ? join(profileDir, `${profileName}.cpuprofile`) : '',
          },
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        const exited = new Promise<void>((r) => child.once('exit', () => r()));
        servers.push({
          close: async () => {
            child.kill('SIGTERM');
            await exited;
          },
        });
        let out = '';
        child.stdout?.on('data', (d) => {
          out += d;
          const m = /LISTENING (\d+)/.exec(out);
          if (m) {
            const targetUrl = `http://127.0.0.1:${m[1]}`;
            if (child.pid) pidOf.set(targetUrl, child.pid);
            nameOf.set(targetUrl, name);
            resolvePort(targetUrl);
          }
          const c = /CPU (\d+) (\d+)/.exec(out);
          if (c) cpu.set(name, { requests: Number(c[1]), micros: Number(c[2]) });
        });
        child.on('exit', (code) => reject(new Error(`target exited (${code})`)));
      });
    const minimalUrl = await startTarget('minimal', { MODE: 'minimal' }, 'minimal');
    const appUrl = await startTarget('app', { MODE: 'app', RATE_LIMITS: 'off' }, 'app');
    const limitedUrl = await startTarget('limited', { MODE: 'app', RATE_LIMITS: 'on' }, 'limited');

    // Both answer a real report: the app with the public fields (identification, verdicts, six
    // photo links, no value), the minimal handler with the row the same SQL returns.
    const sample = codes[0]?.toLowerCase() ?? '';
    const app = (await (
      await fetch(`${appUrl}/api/reports/verify/${sample}`)
    ).json()) as VerificationResponse;
    // The minimal handler answers the row as pg gives it (columns named as in the SQL).
    const minimal = (await (await fetch(`${minimalUrl}/api/reports/verify/${sample}`)).json()) as Record<
      string,
      unknown
    >;
    const current = Object.values(minimal).find(
      (v): v is { content: { photoIds: number[] } } => typeof v === 'object' && v !== null && 'content' in v,
    );
    if (
      !app.identification ||
      !app.authenticity ||
      !app.condition ||
      app.photos.length !== PHOTOS ||
      app.valuation !== null ||
      current?.content.photoIds.length !== PHOTOS
    )
      throw new Error(`unexpected answers: ${JSON.stringify({ app, minimal })}`);

    // Warm both, then alternate so both see the same machine load.
    await measure(minimalUrl);
    await measure(appUrl);
    const rounds: { minimal: Measured; app: Measured }[] = [];
    // The order alternates each round, so neither server always runs right after the other.
    for (let r = 0; r < ROUNDS; r++) {
      if (r % 2 === 0) {
        const m = await measure(minimalUrl);
        rounds.push({ minimal: m, app: await measure(appUrl) });
      } else {
        const a = await measure(appUrl);
        rounds.push({ minimal: await measure(minimalUrl), app: a });
      }
    }
    // Warmed like the other two first: a cold run would also time the JIT and start-up garbage.
    await measure(limitedUrl, true);
    const limited = await measure(limitedUrl, true);
    // BENCH_FASTIFY=1: one more pass of bare Fastify + pg with the same SQL, right after a pass of
    // the minimal handler, to split the gap into Fastify's own share and the app's.
    let bareFastify: { minimal: Measured; fastify: Measured } | undefined;
    if (process.env.BENCH_FASTIFY === '1') {
      const fastifyUrl = await startTarget('fastify', { MODE: 'fastify' });
      await measure(fastifyUrl);
      bareFastify = { minimal: await measure(minimalUrl), fastify: await measure(fastifyUrl) };
    }
    const loadAtEnd = loadAverage();
    // PostgreSQL's own background work during the run (its CPU counts in whichever round it fell).
    const maintenance = await database.queryTextRows(
      'bench_maintenance',
      'select relname, autovacuum_count, autoanalyze_count from pg_stat_user_tables where autovacuum_count + autoanalyze_count > 0 order by relname',
      [],
    );

    for (const s of servers) await s.close();
    const perRequest = (name: string) => {
      const c = cpu.get(name);
      return c && c.requests ? c.micros / c.requests : Number.NaN;
    };
    const cpuMinimal = perRequest('minimal');
    const cpuApp = perRequest('app');

    const avg = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
    const minimalRps = avg(rounds.map((r) => r.minimal.requests.average));
    const appRps = avg(rounds.map((r) => r.app.requests.average));
    // The machine is shared: the ratio is taken per round (both servers measured minutes apart at
    // most) and the median round is the result; every round is printed.
    const ratios = rounds
      .map((r) => r.app.requests.average / r.minimal.requests.average)
      .sort((a, b) => a - b);
    const mid = Math.floor(ratios.length / 2);
    const ratio = ratios.length % 2 ? (ratios[mid] ?? 0) : ((ratios[mid - 1] ?? 0) + (ratios[mid] ?? 0)) / 2;
    const met = ratio >= TARGET_RATIO;
    const fmt = (name: string, rps: number, p50: number, p99: number, non2xx: number) =>
      `  ${name.padEnd(44)} ${rps.toFixed(0).padStart(6)} req/s   p50 ${p50} ms   p99 ${p99} ms   non-2xx ${non2xx}`;
    console.log(
      `GET /api/reports/verify/{code}, ${REPORTS} issued valuation reports (${PHOTOS} photos each), ${CONNECTIONS} connections, ${DURATION_S} s x ${ROUNDS} rounds:`,
    );
    const last = rounds[rounds.length - 1];
    if (!last) throw new Error('no rounds');
    console.log(
      fmt(
        'minimal node:http + pg (prepared)',
        minimalRps,
        last.minimal.latency.p50,
        last.minimal.latency.p99,
        last.minimal.non2xx,
      ),
    );
    console.log(
      fmt('app, rate limits off', appRps, last.app.latency.p50, last.app.latency.p99, last.app.non2xx),
    );
    console.log(
      fmt(
        'app, rate limits on (distinct addresses)',
        limited.requests.average,
        limited.latency.p50,
        limited.latency.p99,
        limited.non2xx,
      ),
    );
    const roundsText = rounds
      .map((r) => `${r.app.requests.average.toFixed(0)}/${r.minimal.requests.average.toFixed(0)}`)
      .join(', ');
    console.log(`  rounds (app / minimal): ${roundsText}`);
    console.log(
      `  app / minimal, median round: ${(ratio * 100).toFixed(0)} % (target ${TARGET_RATIO * 100} %: ${met ? 'met' : 'NOT met'})`,
    );
    const limitedShare = `${((limited.requests.average / appRps) * 100).toFixed(0)} %`;
    console.log(`  rate limits on / off: ${limitedShare}`);
    if (bareFastify) {
      const f = bareFastify.fastify.requests.average;
      const m = bareFastify.minimal.requests.average;
      console.log(
        `  bare Fastify + pg, same SQL: ${f.toFixed(0)} req/s against the minimal handler's ${m.toFixed(0)} in the pass before (${Math.round((100 * f) / m)} %)`,
      );
    }
    console.log(
      `  server CPU per request (whole run): minimal ${cpuMinimal.toFixed(0)} µs, app ${cpuApp.toFixed(0)} µs (app / minimal ${(cpuApp / cpuMinimal).toFixed(2)}), app with limits ${perRequest('limited').toFixed(0)} µs; requests served: ${[...cpu].map(([k, c]) => `${k} ${c.requests}`).join(', ')}`,
    );
    // Where each answer's CPU goes on the whole machine (median round per part). When the two cores
    // are the limit — a quiet machine under this load — requests per second follow the totals.
    const median = (xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b);
      const k = Math.floor(s.length / 2);
      return s.length % 2 ? (s[k] ?? 0) : ((s[k - 1] ?? 0) + (s[k] ?? 0)) / 2;
    };
    const split = (of: (r: { minimal: Measured; app: Measured }) => Measured) => {
      const server = median(rounds.map((r) => of(r).cpu.server));
      const database = median(rounds.map((r) => of(r).cpu.database));
      const generator = median(rounds.map((r) => of(r).cpu.generator));
      return { server, database, generator, total: server + database + generator };
    };
    const minimalCpu = split((r) => r.minimal);
    const appCpu = split((r) => r.app);
    const showSplit = (s: CpuShare & { total: number }) =>
      `${s.server.toFixed(0)} + ${s.database.toFixed(0)} + ${s.generator.toFixed(0)} = ${s.total.toFixed(0)} µs`;
    const cpuBound = minimalCpu.total / appCpu.total;
    console.log(
      `  CPU per answer on the whole machine (server + PostgreSQL + load generator, median round): minimal ${showSplit(minimalCpu)}, app ${showSplit(appCpu)}; minimal / app ${(cpuBound * 100).toFixed(0)} % (requests per second when the cores are the limit)`,
    );
    if (bareFastify) {
      const f = bareFastify.fastify.cpu;
      console.log(
        `  bare Fastify + pg, CPU per answer: ${showSplit({ ...f, total: f.server + f.database + f.generator })}`,
      );
    }
    console.log(
      `  autovacuum / autoanalyze runs during the run: ${maintenance.map((r) => `${r[0]} ${r[1]} / ${r[2]}`).join(', ') || 'none'}`,
    );
    console.log(`  load average (1 / 5 / 15 min): ${loadAtStart} at the start, ${loadAtEnd} at the end`);
    console.log('\nRow for docs/benchmarks.md ("Report verification"):');
    console.log(
      `| ${new Date().toISOString().slice(0, 16).replace('T', ' ')} | ${loadAtStart} → ${loadAtEnd} | ${minimalRps.toFixed(0)} | ${appRps.toFixed(0)} | ${roundsText} | **${(ratio * 100).toFixed(0)} %** ${met ? 'met' : 'NOT met'} | ${limited.requests.average.toFixed(0)} (${limitedShare}) | ${cpuMinimal.toFixed(0)} / ${cpuApp.toFixed(0)} µs | ${showSplit(minimalCpu)} / ${showSplit(appCpu)} (${(cpuBound * 100).toFixed(0)} %) |`,
    );
    if (!met) process.exitCode = 1;
    await database.close();
  } finally {
    for (const s of servers) await s.close();
    cluster.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
