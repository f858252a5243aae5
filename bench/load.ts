// `npm run bench:load`: 50 concurrent clients for 60 s of a realistic mix against the built product on
// PostgreSQL, loopback only. Logins, dashboards, sample details, public verifications and sample
// submissions with a small photo. Prints throughput, p50/p99, errors and the server's RSS over time.
// LOAD_SECONDS and LOAD_CONNECTIONS override the defaults; LOAD_MIX=session (default) or stress picks
// how often clients log in (see below); DIST_DIR picks the build (default dist/). LOAD_ONLY=<text>
// sends only the step with that label, or those whose label contains it (to profile one endpoint).
//
// BENCH_BASELINE=<commit> compares this build with an older commit's in the same run: the commit is
// built in a temporary git worktree (bench/load-baseline.ts), then the two builds are driven by this
// same generator in turns, LOAD_ROUNDS (default 2) runs each, each on a fresh PostgreSQL cluster.
// One table and a verdict follow (bench/load-compare.ts); a regression exits 1.
// BENCH_BASELINE_DIST=<dir> uses an already built baseline instead of building the commit.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { type BaselineBuild, BaselineError, buildBaseline, resolveCommit } from './load-baseline';
import { comparisonReport, latencyFigures, type RunSummary, type Timed } from './load-compare';
import { PHOTO_JPEG, submissionFields } from '../tests/support/factories';
import { freePort, startPostgresCluster } from '../tests/support/postgres';

const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const WARMUP_SECONDS = 5;
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS ?? 50);
const MIX = process.env.LOAD_MIX === 'stress' ? 'stress' : 'session';
const ROUNDS = Math.max(1, Number(process.env.LOAD_ROUNDS ?? 2));
const BASELINE = process.env.BENCH_BASELINE?.trim() || undefined;

/** Builds this checkout into `dist` (when `always`, or when there is no build there yet). */
function buildCurrent(dist: string, always: boolean) {
  if (!always && existsSync(join(dist, 'server/main.js'))) return;
  console.log(`building into ${dist} …`);
  const b = spawnSync('npm', ['run', 'build'], { stdio: 'inherit', env: { ...process.env, DIST_DIR: dist } });
  if (b.status !== 0) process.exit(1);
}

const ADMIN = { email: 'admin@load.test', password: 'admin-password-1' };
const FIELDS = submissionFields({
  submitterName: 'Load Tester',
  submitterEmail: 'load@example.com',
  itemName: 'Porcelain Vase',
  description: 'Blue and white porcelain vase.',
});
const BOUNDARY = '----vlload7d1f';
const multipart = Buffer.concat([
  ...Object.entries(FIELDS).map(([k, v]) =>
    Buffer.from(`--${BOUNDARY}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
  ),
  Buffer.from(
    `--${BOUNDARY}\r\ncontent-disposition: form-data; name="photos"; filename="vase.jpg"\r\ncontent-type: image/jpeg\r\n\r\n`,
  ),
  PHOTO_JPEG,
  Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
]);

const rssOf = (pid: number) => {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : 0;
  } catch {
    return 0;
  }
};

const loadAverage = () => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);

type RunResult = {
  summary: RunSummary;
  result: autocannon.Result;
  statusCounts: Record<string, number>;
  rssOverTime: { t: number; mb: number }[];
};

/** The 25 statements that took the most database time, appended to `file` (a profiling aid). */
async function writeStatementStats(url: string, file: string) {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    await client.query('create extension if not exists pg_stat_statements');
    const { rows } = await client.query(
      `select calls, round(total_exec_time::numeric, 1) as ms, round((total_exec_time / calls)::numeric, 3) as per_call,
         left(regexp_replace(query, '\\s+', ' ', 'g'), 140) as query
       from pg_stat_statements order by total_exec_time desc limit 40`,
    );
    const lines = rows.map(
      (r) =>
        `${String(r.calls).padStart(7)} ${String(r.ms).padStart(9)} ms ${String(r.per_call).padStart(8)} ${r.query}`,
    );
    const total = (
      await client.query(
        'select sum(calls) as calls, round(sum(total_exec_time)::numeric, 1) as ms from pg_stat_statements',
      )
    ).rows[0];
    appendFileSync(
      file,
      `${lines.join('\n')}\n${String(total.calls).padStart(7)} ${String(total.ms).padStart(9)} ms in all\n\n`,
    );
  } catch (err) {
    appendFileSync(file, `pg_stat_statements: ${(err as Error).message}\n`);
  } finally {
    await client.end().catch(() => {});
  }
}

/** One measured run of the build in `dist`: a fresh cluster and data dir, set-up, warm-up, the timed mix. */
async function runLoad(dist: string, build: RunSummary['build'], round: number): Promise<RunResult> {
  const loadAvg = loadAverage();
  // LOAD_PG_SETTINGS: extra server settings, e.g. "shared_preload_libraries=pg_stat_statements".
  const cluster = await startPostgresCluster(process.env.LOAD_PG_SETTINGS?.split(' ').filter(Boolean) ?? []);
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  await admin.query('create database load');
  await admin.end();
  const dataDir = mkdtempSync(join(tmpdir(), 'vl-load-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(
    process.execPath,
    // LOAD_NODE_ARGS: extra node flags for the server, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
    [...(process.env.LOAD_NODE_ARGS?.split(' ').filter(Boolean) ?? []), join(dist, 'server/main.js')],
    {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: cluster.urlFor('load'),
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        RATE_LIMITS: 'off',
        LOG_LEVEL: 'warn',
        PUBLIC_URL: url,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  // A graceful stop first (so e.g. NODE_OPTIONS=--cpu-prof can write the server's profile).
  let exitCode: number | null | undefined;
  child.once('exit', (code) => (exitCode = code));
  const cleanup = async () => {
    const exited = new Promise((r) => (exitCode === undefined ? child.once('exit', r) : r(null)));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    child.kill('SIGKILL');
    // LOAD_PG_STATS=<file> (with pg_stat_statements preloaded, above): the statements by database time.
    if (process.env.LOAD_PG_STATS)
      await writeStatementStats(cluster.urlFor('load'), process.env.LOAD_PG_STATS);
    cluster.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${url}/api/health`)).ok) break;
      } catch {}
      if (exitCode !== undefined)
        throw new Error(`the server in ${dist} exited (code ${exitCode}) before answering /api/health`);
      if (i > 600) throw new Error('product did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
    const post = async (path: string, body: unknown, token?: string) => {
      const res = await fetch(`${url}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return res.json() as Promise<Record<string, unknown>>;
    };
    // One customer per client, each with a sample that has an issued report.
    const adminToken = (await post('/login', ADMIN)).token as string;
    const customers: { email: string; password: string; sampleId: number; code: string; token: string }[] =
      [];
    for (let i = 0; i < CONNECTIONS; i++) {
      const c = { email: `load${i}@example.com`, password: 'load-password-1' };
      await post('/api/register', { ...c, firstName: 'Load', lastName: `Client ${i}` });
      const token = (await post('/login', c)).token as string;
      const sub = await fetch(`${url}/api/samples`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        },
        body: multipart,
      });
      if (!sub.ok) throw new Error(`POST /api/samples: ${sub.status} ${await sub.text()}`);
      const sampleId = ((await sub.json()) as { id: number }).id;
      const issued = await post(
        `/api/staff/samples/${sampleId}/report`,
        {
          elements: [
            { element: 'Kaolin', percentage: 60, purity: null, quality: null, notes: '<p>Fine</p>' },
          ],
        },
        adminToken,
      );
      customers.push({ ...c, sampleId, code: issued.reportCode as string, token });
    }

    let next = 0;
    type Ctx = { i?: number; label?: string; t0?: number };
    type Customer = (typeof customers)[number];
    const who = (ctx: Ctx): Customer => {
      if (ctx.i === undefined) ctx.i = next++ % customers.length;
      return customers[ctx.i] as Customer;
    };
    type Step = {
      label: string;
      method: 'GET' | 'POST';
      build(c: Customer): { path: string; headers?: Record<string, string>; body?: string | Buffer };
      after?(c: Customer, body: string): void;
    };
    const authed = (label: string, path: string): Step => ({
      label,
      method: 'GET',
      build: (c) => ({
        path: path.replace(':id', String(c.sampleId)),
        headers: { authorization: `Bearer ${c.token}` },
      }),
    });
    const login: Step = {
      label: 'POST /login',
      method: 'POST',
      build: (c) => ({
        path: '/login',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: c.email, password: c.password }),
      }),
      after: (c, body) => {
        try {
          c.token = JSON.parse(body).token;
        } catch {}
      },
    };
    const verify = (lower: boolean): Step => ({
      label: `GET /api/reports/verify/:code${lower ? ' (lower case)' : ''}`,
      method: 'GET',
      build: (c) => ({ path: `/api/reports/verify/${lower ? c.code.toLowerCase() : c.code}` }),
    });
    const submit: Step = {
      label: 'POST /api/samples (multipart, 1 photo)',
      method: 'POST',
      build: (c) => ({
        path: '/api/samples',
        headers: {
          authorization: `Bearer ${c.token}`,
          'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        },
        body: multipart,
      }),
    };
    // One visit to the portal: the app's session check, the dashboard, sample pages, two public
    // verifications and a submission (a heavy 10 % of uploads).
    const visit: Step[] = [
      authed('GET /api/auth/user', '/api/auth/user'),
      authed('GET /api/samples', '/api/samples'),
      authed('GET /api/samples/:id', '/api/samples/:id'),
      verify(false),
      authed('GET /api/samples', '/api/samples'),
      authed('GET /api/samples/:id', '/api/samples/:id'),
      verify(true),
      authed('GET /api/samples', '/api/samples'),
      submit,
    ];
    // LOAD_MIX=session (default): one sign-in per three visits — the web app keeps its token (12 h)
    // and signs in once per session, so logins are 1 request in 28.
    // LOAD_MIX=stress: one sign-in per visit (1 request in 10), which makes password hashing
    // (argon2id at OWASP's minimum, ~25 ms of CPU each here) the bottleneck on two cores.
    // Each client starts with the token it got during setup, and where in its sequence a client
    // signs in varies from round to round: real visitors do not all sign in at the same moment, and a
    // generator whose 50 clients sign in together measures that queue (1.25 s behind one hashing
    // thread), not the product.
    const browsing = MIX === 'stress' ? visit : [...visit, ...visit, ...visit];
    const SLOTS = browsing.length + 1;
    const ONLY = process.env.LOAD_ONLY;
    const steps = [login, ...browsing];
    const only = ONLY
      ? steps.some((s) => s.label === ONLY)
        ? steps.filter((s) => s.label === ONLY)
        : steps.filter((s) => s.label.includes(ONLY))
      : undefined;
    if (only?.length === 0) throw new Error(`LOAD_ONLY=${ONLY}: no step of the mix has that in its label`);
    const stepAt = (slot: number, ctx: Ctx): Step => {
      who(ctx);
      // 11 is prime to both sequence lengths (28, 10): over the clients, every slot gets logins.
      const loginSlot = ((ctx.i ?? 0) * 11) % SLOTS;
      const step = slot === loginSlot ? login : (browsing[slot < loginSlot ? slot : slot - 1] as Step);
      // LOAD_ONLY=<text>: every request is the mix's first step whose label contains it (a profile
      // of one endpoint); the login slots stay logins only when the text picks logins.
      return only ? (only.find((s) => s.label === step.label) ?? (only[0] as Step)) : step;
    };
    // Latency is timed here, per request, from the moment a request is built (autocannon sends it
    // at once: one request in flight per connection) to its response.
    let recording = false;
    const samples: Timed[] = [];
    const requests = Array.from({ length: SLOTS }, (_, slot) => ({
      method: 'GET',
      path: '/',
      setupRequest: (req: Record<string, unknown>, ctx: Ctx) => {
        const step = stepAt(slot, ctx);
        const built = step.build(who(ctx));
        ctx.label = step.label;
        ctx.t0 = performance.now();
        return { ...req, method: step.method, ...built };
      },
      onResponse: (_status: number, body: string, ctx: Ctx) => {
        if (recording && ctx.t0 !== undefined)
          samples.push({ label: ctx.label ?? '?', ms: performance.now() - ctx.t0 });
        if (ctx.label === login.label) login.after?.(who(ctx), body);
      },
    }));

    // A short warm-up (JIT, connection pools, plans), not measured.
    await (autocannon({
      url,
      connections: CONNECTIONS,
      duration: WARMUP_SECONDS,
      requests: requests as never,
    }) as unknown as Promise<autocannon.Result>);
    recording = true;

    const pid = child.pid ?? 0;
    const rss: { t: number; mb: number }[] = [{ t: 0, mb: rssOf(pid) }];
    const started = Date.now();
    const sampler = setInterval(
      () => rss.push({ t: Math.round((Date.now() - started) / 1000), mb: rssOf(pid) }),
      5000,
    );
    const statusCounts: Record<string, number> = {};
    const instance = autocannon({
      url,
      connections: CONNECTIONS,
      duration: SECONDS,
      requests: requests as never,
    }) as unknown as Promise<autocannon.Result> & NodeJS.EventEmitter; // the instance is both
    instance.on('response', (_client: unknown, status: number) => {
      statusCounts[status] = (statusCounts[status] ?? 0) + 1;
    });
    const result = await instance;
    clearInterval(sampler);
    rss.push({ t: SECONDS, mb: rssOf(pid) });

    const errors = result.errors + result.timeouts + result.non2xx;
    return {
      summary: {
        build,
        round,
        seconds: SECONDS,
        requests: result.requests.total,
        rps: result.requests.average,
        ...latencyFigures(samples),
        errors,
        rssMb: rss.map((r) => r.mb),
        loadAvg,
      },
      result,
      statusCounts,
      rssOverTime: rss,
    };
  } finally {
    await cleanup();
  }
}

/** The single-build table, as before the comparison mode. */
function printSingle(run: RunResult) {
  const { summary: r, result } = run;
  console.log(
    `\n## Load: ${CONNECTIONS} clients × ${SECONDS} s on PostgreSQL, mix "${MIX}" (bench/load.ts)\n`,
  );
  console.log('| figure | value |\n|---|---|');
  console.log(`| requests | ${r.requests} (${r.rps.toFixed(0)} req/s average) |`);
  console.log(
    `| latency p50 / p90 / p99 / max | ${r.p50.toFixed(0)} / ${r.p90.toFixed(0)} / ${r.p99.toFixed(0)} / ${r.max.toFixed(0)} ms |`,
  );
  console.log(`| autocannon's own p50 / p99 | ${result.latency.p50} / ${result.latency.p99} ms |`);
  console.log(
    `| errors (connection) / timeouts / non-2xx | ${result.errors} / ${result.timeouts} / ${result.non2xx} |`,
  );
  console.log(`| status codes | ${JSON.stringify(run.statusCounts)} |`);
  console.log(
    `| server RSS over time (s: MB) | ${run.rssOverTime.map((x) => `${x.t}: ${x.mb}`).join(', ')} |`,
  );
  console.log('\n| request | count | p50 ms | p99 ms |\n|---|---|---|---|');
  for (const e of r.endpoints)
    console.log(`| ${e.label} | ${e.count} | ${e.p50.toFixed(0)} | ${e.p99.toFixed(0)} |`);
  const met = r.errors === 0 && r.p99 < 250;
  console.log(`\nTarget (zero errors, p99 < 250 ms): ${met ? 'met' : 'NOT met'}`);
  if (!met) process.exitCode = 1;
}

async function main() {
  const dist = resolve(process.env.DIST_DIR ?? 'dist');
  if (!BASELINE) {
    buildCurrent(dist, false);
    printSingle(await runLoad(dist, 'current', 1));
    return;
  }
  resolveCommit(BASELINE); // a typo fails before anything is built
  // Comparison: without DIST_DIR this checkout is built afresh (a stale dist/ would compare the wrong code).
  buildCurrent(dist, !process.env.DIST_DIR);
  const prebuilt = process.env.BENCH_BASELINE_DIST;
  let baseline: BaselineBuild;
  if (prebuilt) {
    baseline = { commit: BASELINE, dist: resolve(prebuilt), remove: () => {} };
    if (!existsSync(join(baseline.dist, 'server/main.js')))
      throw new BaselineError(`BENCH_BASELINE_DIST=${prebuilt}: no server/main.js there`);
  } else baseline = buildBaseline(BASELINE);
  const names = { current: 'current', baseline: `baseline ${BASELINE}` };
  const runs: RunSummary[] = [];
  // Ctrl-C: the temporary worktree goes too (git would otherwise list it until `git worktree prune`).
  process.once('SIGINT', () => {
    baseline.remove();
    process.exit(130);
  });
  try {
    // Turns: current first in odd rounds, the baseline first in even ones, so a machine that gets
    // busier or quieter during the run does not favour one build.
    for (let round = 1; round <= ROUNDS; round++) {
      const order = round % 2 ? (['current', 'baseline'] as const) : (['baseline', 'current'] as const);
      for (const build of order) {
        console.log(`\n▶ round ${round}/${ROUNDS}: ${names[build]} (load average ${loadAverage()}) …`);
        const { summary: r } = await runLoad(build === 'current' ? dist : baseline.dist, build, round);
        runs.push(r);
        console.log(
          `◀ ${r.rps.toFixed(0)} req/s, p50 / p90 / p99 ${r.p50.toFixed(0)} / ${r.p90.toFixed(0)} / ${r.p99.toFixed(0)} ms, ${r.errors} errors`,
        );
      }
    }
  } finally {
    baseline.remove();
  }
  console.log(
    `\n## Load: ${CONNECTIONS} clients × ${SECONDS} s on PostgreSQL, mix "${MIX}", current against ${BASELINE} (bench/load.ts)\n`,
  );
  const { lines, verdict } = comparisonReport(runs, names);
  for (const line of lines) console.log(line);
  if (verdict.regression) process.exitCode = 1;
}

main().catch((err) => {
  if (err instanceof BaselineError) {
    console.error(`bench:load: ${err.message}`);
    process.exit(1);
  }
  console.error(err);
  process.exit(1);
});
