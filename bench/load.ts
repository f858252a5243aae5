// `npm run bench:load`: 50 concurrent clients for 60 s of a realistic mix against the built product on
// PostgreSQL, loopback only. Logins, dashboards, sample details, public verifications and sample
// submissions with a small photo. Prints throughput, p50/p99, errors and the server's RSS over time.
// LOAD_SECONDS and LOAD_CONNECTIONS override the defaults; DIST_DIR picks the build (default dist/).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { freePort, startPostgresCluster } from '../tests/support/postgres';

const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS ?? 50);
const dist = resolve(process.env.DIST_DIR ?? 'dist');
if (!existsSync(join(dist, 'server/main.js'))) {
  console.log(`building into ${dist} …`);
  const b = spawnSync('npm', ['run', 'build'], { stdio: 'inherit', env: { ...process.env, DIST_DIR: dist } });
  if (b.status !== 0) process.exit(1);
}

const PHOTO = readFileSync('tests/fixtures/photo.jpg');
const ADMIN = { email: 'admin@load.test', password: 'admin-password-1' };
const FIELDS: Record<string, string> = {
  submitterName: 'Load Tester',
  submitterEmail: 'load@example.com',
  submitterPhone: '+44 20 7946 0000',
  submitterCountry: 'united-kingdom',
  isPersonalSubmission: 'true',
  itemName: 'Porcelain Vase',
  category: 'furniture-decorative',
  description: 'Blue and white porcelain vase.',
  expertValuation: 'true',
  authenticityCheck: 'false',
  conditionAssessment: 'false',
  provenanceResearch: 'false',
  purposeOfValuation: 'insurance',
  urgencyLevel: 'standard',
  estimatedValueRange: '1000-5000',
};
const BOUNDARY = '----vlload7d1f';
const multipart = Buffer.concat([
  ...Object.entries(FIELDS).map(([k, v]) =>
    Buffer.from(`--${BOUNDARY}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
  ),
  Buffer.from(
    `--${BOUNDARY}\r\ncontent-disposition: form-data; name="photos"; filename="vase.jpg"\r\ncontent-type: image/jpeg\r\n\r\n`,
  ),
  PHOTO,
  Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
]);

/** What each entry of the request list below is, in order (for the per-endpoint split). */
const LABELS = [
  '/login',
  '/api/auth/user',
  '/api/samples',
  '/api/samples/:id',
  '/api/reports/verify/:code',
  '/api/samples',
  '/api/samples/:id',
  '/api/reports/verify/:code (lower case)',
  '/api/samples',
  '/api/samples (multipart, 1 photo)',
];

const rssOf = (pid: number) => {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : 0;
  } catch {
    return 0;
  }
};

async function main() {
  const cluster = await startPostgresCluster();
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
  const cleanup = async () => {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    child.kill('SIGKILL');
    cluster.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${url}/api/health`)).ok) break;
      } catch {}
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
    const customers: { email: string; password: string; sampleId: number; code: string }[] = [];
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
      customers.push({ ...c, sampleId, code: issued.reportCode as string });
    }

    let next = 0;
    type Ctx = { i?: number; token?: string };
    const who = (ctx: Ctx) => {
      if (ctx.i === undefined) ctx.i = next++ % customers.length;
      return customers[ctx.i] as (typeof customers)[number];
    };
    const authed = (path: string) => ({
      method: 'GET' as const,
      setupRequest: (req: Record<string, unknown>, ctx: Ctx) => ({
        ...req,
        path: path.replace(':id', String(who(ctx).sampleId)),
        headers: { authorization: `Bearer ${ctx.token}` },
      }),
    });
    const requests = [
      {
        method: 'POST' as const,
        path: '/login',
        setupRequest: (req: Record<string, unknown>, ctx: Ctx) => {
          const c = who(ctx);
          return {
            ...req,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email: c.email, password: c.password }),
          };
        },
        onResponse: (_status: number, body: string, ctx: Ctx) => {
          try {
            ctx.token = JSON.parse(body).token;
          } catch {}
        },
      },
      authed('/api/auth/user'),
      authed('/api/samples'),
      authed('/api/samples/:id'),
      {
        method: 'GET' as const,
        setupRequest: (req: Record<string, unknown>, ctx: Ctx) => ({
          ...req,
          path: `/api/reports/verify/${who(ctx).code}`,
        }),
      },
      authed('/api/samples'),
      authed('/api/samples/:id'),
      {
        method: 'GET' as const,
        setupRequest: (req: Record<string, unknown>, ctx: Ctx) => ({
          ...req,
          path: `/api/reports/verify/${who(ctx).code.toLowerCase()}`,
        }),
      },
      authed('/api/samples'),
      {
        method: 'POST' as const,
        path: '/api/samples',
        setupRequest: (req: Record<string, unknown>, ctx: Ctx) => ({
          ...req,
          headers: {
            authorization: `Bearer ${ctx.token}`,
            'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
          },
          body: multipart,
        }),
      },
    ];

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
    // Each connection walks the request list in order, so the n-th response of a connection
    // answers requests[n % length]: that gives the latency split per endpoint.
    const seen = new Map<unknown, number>();
    const perEndpoint = requests.map(() => [] as number[]);
    instance.on('response', (client: unknown, status: number, _bytes: number, ms: number) => {
      statusCounts[status] = (statusCounts[status] ?? 0) + 1;
      const n = seen.get(client) ?? 0;
      seen.set(client, n + 1);
      perEndpoint[n % requests.length]?.push(ms);
    });
    const result = await instance;
    clearInterval(sampler);
    rss.push({ t: SECONDS, mb: rssOf(pid) });

    const l = result.latency;
    const total = result.requests.total;
    console.log(`\n## Load: ${CONNECTIONS} clients × ${SECONDS} s on PostgreSQL (bench/load.ts)\n`);
    console.log('| figure | value |\n|---|---|');
    console.log(`| requests | ${total} (${result.requests.average.toFixed(0)} req/s average) |`);
    console.log(`| latency p50 / p90 / p99 / max | ${l.p50} / ${l.p90} / ${l.p99} / ${l.max} ms |`);
    console.log(
      `| errors (connection) / timeouts / non-2xx | ${result.errors} / ${result.timeouts} / ${result.non2xx} |`,
    );
    console.log(`| status codes | ${JSON.stringify(statusCounts)} |`);
    console.log(`| server RSS over time (s: MB) | ${rss.map((r) => `${r.t}: ${r.mb}`).join(', ')} |`);
    const pct = (xs: number[], p: number) => {
      const sorted = [...xs].sort((a, b) => a - b);
      return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
    };
    console.log('\n| request | count | p50 ms | p99 ms |\n|---|---|---|---|');
    requests.forEach((r, i) => {
      const xs = perEndpoint[i] ?? [];
      const label = `${r.method} ${LABELS[i] ?? ''}`;
      console.log(`| ${label} | ${xs.length} | ${pct(xs, 50).toFixed(0)} | ${pct(xs, 99).toFixed(0)} |`);
    });
    const ok = result.errors === 0 && result.timeouts === 0 && result.non2xx === 0;
    console.log(`\nTarget (zero errors, p99 < 250 ms): ${ok && l.p99 < 250 ? 'met' : 'NOT met'}`);
  } finally {
    await cleanup();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
