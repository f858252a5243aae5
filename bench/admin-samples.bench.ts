// `npm run bench -- admin-samples`: the admin sample list and the staff list on a large table.
// Starts a throwaway PostgreSQL (tests/support/postgres.ts), seeds samples with generate_series,
// serves the real app over HTTP, and times sequential requests (one connection, keep-alive):
//   GET /api/admin/samples at page 1, a middle page and the last page, with 10,000 and then
//   1,000,000 samples; GET /api/staff/samples for a staff member with 500 assigned samples.
// Results go to the "Admin sample list" section of docs/benchmarks.md.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { openPostgres } from '../server/db/client';
import { hashPassword } from '../server/modules/accounts/passwords';
import { createDiskStorage } from '../server/storage/disk-storage';
import { startPostgresCluster } from '../tests/support/postgres';

const SMALL = 10_000;
const LARGE = Number(process.env.BENCH_SAMPLES ?? 1_000_000);
const ASSIGNED = 500;
const RUNS = Number(process.env.BENCH_RUNS ?? 300);
const WARMUP = 30;
const CHUNK = 200_000;
const TARGET_P50_MS = 20;

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

function get(
  base: string,
  path: string,
  token: string,
): Promise<{ status: number; total: string | null; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => {
        bytes += c.length;
      });
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          total: (res.headers['x-total-count'] as string) ?? null,
          bytes,
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
};

async function time(base: string, path: string, token: string) {
  const first = await get(base, path, token);
  if (first.status !== 200) throw new Error(`${path} answered ${first.status}`);
  for (let i = 0; i < WARMUP; i++) await get(base, path, token);
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await get(base, path, token);
    ms.push(performance.now() - t0);
  }
  return { p50: pct(ms, 50), p99: pct(ms, 99), total: first.total, bytes: first.bytes };
}

/** Appends `count` samples with ids after the current ones; every 20th of the first 10,000 goes to staff. */
async function seed(client: pg.Client, count: number, customers: number[], staffId: number) {
  for (let done = 0; done < count; done += CHUNK) {
    const n = Math.min(CHUNK, count - done);
    await client.query(
      `insert into samples (user_id, submitter_name, submitter_email, item_name, category, description,
         status, submission_date, assigned_staff_id, expert_valuation)
       select ($1::int[])[1 + g % array_length($1::int[], 1)],
         'Client ' || g, 'client' || g || '@example.com', 'Item ' || g, 'other', 'Bench sample ' || g,
         (array['submitted','in-progress','analysis','review','completed','on-hold'])[1 + g % 6],
         now() - make_interval(mins => g % 120000),
         null, true
       from generate_series(1, $2::int) g`,
      [customers, n],
    );
  }
  // The first 10,000 sample ids are the small table; 500 of them are the staff member's.
  await client.query(
    `update samples set assigned_staff_id = $1
      where assigned_staff_id is null and id in (select id from samples order by id limit ${SMALL})
        and id % ${SMALL / ASSIGNED} = 0`,
    [staffId],
  );
  await client.query('analyze samples');
}

async function main() {
  const cluster = await startPostgresCluster();
  const dataDir = mkdtempSync(join(tmpdir(), 'vl-bench-'));
  try {
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query('create database bench');
    await admin.end();
    const url = cluster.urlFor('bench');
    const database = await openPostgres(url, { max: 10 });
    const config = loadConfig({
      DATA_DIR: dataDir,
      DATABASE_URL: url,
      LOG_LEVEL: 'silent',
      RATE_LIMITS: 'off',
      JWT_SECRET: randomBytes(32).toString('hex'),
    });
    const app = await buildApp({
      config,
      database,
      storage: createDiskStorage(join(dataDir, 'files')),
      logger: false,
      serveWeb: false,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const hash = await hashPassword('bench-password-1');
    const { rows: people } = await client.query<{ id: number; role: string }>(
      `insert into users (email, password_hash, first_name, last_name, role)
       select 'u' || g || '@bench.test', $1, 'First' || g, 'Last' || g,
              case g when 1 then 'admin' when 2 then 'staff' else 'user' end
       from generate_series(1, 202) g returning id, role`,
      [hash],
    );
    const adminId = people.find((p) => p.role === 'admin')?.id ?? 0;
    const staffId = people.find((p) => p.role === 'staff')?.id ?? 0;
    const customers = people.filter((p) => p.role === 'user').map((p) => p.id);
    const login = async (email: string) => {
      const res = await app.inject({
        method: 'POST',
        url: '/login',
        payload: { email, password: 'bench-password-1' },
      });
      return (res.json() as { token: string }).token;
    };
    const adminToken = await login('u1@bench.test');
    const staffToken = await login('u2@bench.test');
    void adminId;

    const results: string[] = [];
    const measure = async (size: number) => {
      const pages = Math.ceil(size / 10);
      const cases: [string, string, string][] = [
        ['admin list, page 1', `/api/admin/samples?page=1&pageSize=10`, adminToken],
        [
          'admin list, middle page',
          `/api/admin/samples?page=${Math.ceil(pages / 2)}&pageSize=10`,
          adminToken,
        ],
        ['admin list, last page', `/api/admin/samples?page=${pages}&pageSize=10`, adminToken],
        [`staff list (${ASSIGNED} assigned)`, '/api/staff/samples', staffToken],
      ];
      const out: Record<string, number> = {};
      for (const [label, path, token] of cases) {
        const r = await time(base, path, token);
        if (path.startsWith('/api/admin') && r.total !== String(size))
          throw new Error(`X-Total-Count ${r.total}, expected ${size}`);
        out[label] = r.p50;
        const line = `| ${size.toLocaleString('en-US')} | ${label} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${(r.bytes / 1024).toFixed(1)} KB |`;
        results.push(line);
        console.log(line);
      }
      return out;
    };

    // Server-side cost in PostgreSQL alone (EXPLAIN ANALYZE execution time, median of 5), which the
    // machine's load disturbs far less than end-to-end latency: the bucket seek against plain OFFSET.
    const explainMs = async (query: string) => {
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const { rows } = await client.query(`explain (analyze, format json) ${query}`);
        times.push(Number(rows[0]['QUERY PLAN'][0]['Execution Time']));
      }
      return pct(times, 50);
    };
    const sqlCosts = async (size: number) => {
      const lastOffset = Math.floor((size - 1) / 10) * 10;
      const locate = `with b as (select bucket, rows, sum(rows) over (order by bucket desc) as cum
          from sample_id_buckets where rows > 0)
        select (select coalesce(sum(rows), 0) from sample_id_buckets) as total, hit.bucket, hit.cum - hit.rows
        from (select 1) one left join lateral (select bucket, rows, cum from b where cum > ${lastOffset}
          order by bucket desc limit 1) hit on true`;
      const { rows } = await client.query(locate);
      const upper = (Number(rows[0].bucket) + 1) * 1000;
      const skip = lastOffset - Number(rows[0]['?column?']);
      const page = `select s.*, u.first_name, a.first_name from samples s left join users u on u.id = s.user_id
        left join users a on a.id = s.assigned_staff_id where s.id in (select id from samples where id < ${upper}
        order by id desc offset ${skip} limit 10) order by s.id desc`;
      const figures: Record<string, number> = {
        'bucket locate (last page)': await explainMs(locate),
        'page fetch below the bound (last page)': await explainMs(page),
        'for comparison: count(*)': await explainMs('select count(*) from samples'),
        'for comparison: OFFSET to the last page': await explainMs(
          `select id from samples order by id desc offset ${lastOffset} limit 10`,
        ),
      };
      figures[`staff work list (${ASSIGNED} rows)`] = await explainMs(
        `select s.id, s.item_name, s.status, s.submission_date, s.report_code, u.first_name, a.first_name
         from samples s left join users u on u.id = s.user_id left join users a on a.id = s.assigned_staff_id
         where s.assigned_staff_id = ${staffId} order by s.id desc`,
      );
      for (const [k, v] of Object.entries(figures))
        console.log(`| ${size.toLocaleString('en-US')} | SQL: ${k} | ${v.toFixed(2)} | | |`);
    };

    let t0 = performance.now();
    await seed(client, SMALL, customers, staffId);
    console.log(`seeded ${SMALL} samples in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    console.log('| samples | call | p50 ms | p99 ms | body |\n|---|---|---|---|---|');
    const small = await measure(SMALL);
    await sqlCosts(SMALL);
    t0 = performance.now();
    await seed(client, LARGE - SMALL, customers, staffId);
    console.log(`seeded ${LARGE - SMALL} more samples in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const large = await measure(LARGE);
    await sqlCosts(LARGE);
    await client.end();

    let failed = false;
    console.log('\nratio large/small (target ≤ 1.5) and p50 target < 20 ms:');
    for (const key of Object.keys(small)) {
      const ratio = (large[key] ?? 0) / (small[key] ?? 1);
      const ok = ratio <= 1.5 && (large[key] ?? Infinity) < TARGET_P50_MS;
      if (!ok) failed = true;
      console.log(`  ${key}: ${ratio.toFixed(2)}× ${ok ? 'ok' : 'MISSED'}`);
    }
    await app.close();
    await database.close();
    if (failed) process.exitCode = 1;
  } finally {
    agent.destroy();
    cluster.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
