// `npm run bench -- search`: the lab lists' search, filters and export on a large table
// (docs/decisions/0025-search.md). Starts a throwaway PostgreSQL (tests/support/postgres.ts), seeds
// BENCH_SAMPLES samples (default 10,000,000) with COPY through psql — realistic names with accents,
// items, e-mails, report codes on issued samples — serves the real app over HTTP and times sequential
// requests (one keep-alive connection): p50 and p99 of each search, each filter combined with a
// search, and the CSV export's throughput and the server's memory while it streams. Prints the
// database, table and index sizes and the seeding time. Results: docs/benchmarks.md, "Search".
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
import { createDiskStorage } from '../server/storage/disk-storage';
import { startPostgresCluster } from '../tests/support/postgres';
import { copySamples, seedPeople, withIndexesAfter } from './sample-seed';

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 10_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 60);
const WARMUP = 5;
const CUSTOMERS = 20_000;
const STAFF = 40;

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

function get(base: string, path: string, token: string) {
  return new Promise<{
    status: number;
    total: string | null;
    estimated: boolean;
    bytes: number;
    body: string;
  }>((resolve, reject) => {
    const req = request(`${base}${path}`, { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
      const parts: Buffer[] = [];
      let bytes = 0;
      res.on('data', (c: Buffer) => {
        bytes += c.length;
        if (bytes < 1 << 20) parts.push(c);
      });
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          total: (res.headers['x-total-count'] as string) ?? null,
          estimated: res.headers['x-total-count-estimated'] === 'true',
          bytes,
          body: Buffer.concat(parts).toString('utf8'),
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

async function main() {
  const cluster = await startPostgresCluster([
    'shared_buffers=512MB',
    'maintenance_work_mem=512MB',
    'work_mem=16MB',
  ]);
  const dataDir = mkdtempSync(join(tmpdir(), 'vl-bench-'));
  try {
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query('create database bench');
    await admin.end();
    const url = cluster.urlFor('bench');
    const database = await openPostgres(url, { max: 10 });
    const client = new pg.Client({ connectionString: url });
    await client.connect();

    const { staffIds, customers } = await seedPeople(client, STAFF, CUSTOMERS);

    // The indexes are built after the COPY (as a restore does): one sort each instead of 10M inserts.
    const t0 = performance.now();
    let copied = 0;
    const indexed = await withIndexesAfter(client, 'samples', async () => {
      await copySamples(url, SAMPLES, customers, staffIds);
      copied = performance.now() - t0;
    });
    await client.query('analyze samples');
    await client.query(`insert into sample_id_buckets (bucket, rows)
      select id / 1000, count(*) from samples group by 1
      on conflict (bucket) do update set rows = excluded.rows`);
    const seedSeconds = (performance.now() - t0) / 1000;

    const sizes = await client.query<{ name: string; bytes: string }>(
      `select 'database' as name, pg_database_size(current_database())::text as bytes
       union all select 'samples table (heap + toast)', pg_table_size('samples')::text
       union all select 'samples indexes, all', pg_indexes_size('samples')::text
       union all select indexrelid::regclass::text, pg_relation_size(indexrelid)::text
         from pg_index where indrelid = 'samples'::regclass`,
    );

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
      runJobs: false,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const token = (
      (
        await app.inject({
          method: 'POST',
          url: '/login',
          payload: { email: 'staff1@lab.test', password: 'bench-password-1' },
        })
      ).json() as { token: string }
    ).token;

    // Targets picked from the table itself.
    const { rows: picks } = await client.query(`
      select (select id from samples where id = (select max(id) / 2 from samples)) as mid_id,
             (select report_code from samples where report_code is not null and id > (select max(id) / 3 from samples) order by id limit 1) as code,
             (select submitter_email from samples where id = (select max(id) / 4 from samples)) as email`);
    const target = picks[0] as { mid_id: number; code: string; email: string };
    const someStaff = staffIds[3] as number;
    const cases: [string, string, number | null][] = [
      ['id with prefix', `q=VAL-${String(target.mid_id).padStart(4, '0')}`, 20],
      ['id without prefix', `q=${target.mid_id}`, 20],
      ['report code, lower case', `q=${target.code.toLowerCase()}`, 20],
      ['e-mail', `q=${encodeURIComponent(target.email)}`, 20],
      ['client surname without accents (durer)', 'q=durer', 100],
      ['client first and last name (elise durer)', `q=${encodeURIComponent('elise durer')}`, 100],
      ['item word (figurine)', 'q=figurine', 100],
      ['partial item word (meiss)', 'q=meiss', 100],
      ['rare word (faberge)', 'q=faberge', 100],
      ['very common word (silver)', 'q=silver', 100],
      ['durer + status=analysis', 'q=durer&status=analysis', 50],
      ['silver + status=analysis', 'q=silver&status=analysis', 50],
      ['silver + assignedStaffId', `q=silver&assignedStaffId=${someStaff}`, 50],
      ['silver + overdue', 'q=silver&overdue=true', 50],
      ['figurine + date range (one year)', 'q=figurine&from=2024-01-01&to=2024-12-31', 50],
      ['durer + two statuses', 'q=durer&status=review&status=on-hold', 50],
      ['durer + assignedStaffId', `q=durer&assignedStaffId=${someStaff}`, 50],
      ['durer + unassigned', 'q=durer&assignedStaffId=none', 50],
      ['durer + overdue', 'q=durer&overdue=true', 50],
      ['durer + custody', 'q=durer&custody=awaiting-arrival', 50],
      ['durer + date range (one year)', 'q=durer&from=2024-01-01&to=2024-12-31', 50],
      ['durer + sort=expected', 'q=durer&sort=expected', 50],
      ['durer + sort=-lastUpdated', 'q=durer&sort=-lastUpdated', 50],
      ['durer + sort=submitted', 'q=durer&sort=submitted', 50],
      ['status=review alone', 'status=review', 50],
      ['overdue alone', 'overdue=true', 50],
      ['unassigned alone, sort=-expected', 'assignedStaffId=none&sort=-expected', 50],
      ['plain list, page 1', '', 50],
    ];
    console.log(
      `\nSamples: ${SAMPLES.toLocaleString('en-US')}; seeded in ${seedSeconds.toFixed(0)} s (COPY ${(copied / 1000).toFixed(0)} s, indexes ${indexed.toFixed(0)} s)`,
    );
    for (const r of sizes.rows) console.log(`| ${r.name} | ${(Number(r.bytes) / 1024 ** 2).toFixed(0)} MB |`);
    console.log('\n| search | total (~ estimated) | p50 ms | p99 ms | target p50 |');
    console.log('| --- | --- | --- | --- | --- |');
    // BENCH_EXPORT_ONLY=1 skips the searches (the export's memory alone).
    for (const [label, query, targetMs] of process.env.BENCH_EXPORT_ONLY === '1' ? [] : cases) {
      const path = `/api/admin/samples?${query}${query ? '&' : ''}pageSize=10`;
      const first = await get(base, path, token);
      if (first.status !== 200) throw new Error(`${path}: ${first.status} ${first.body.slice(0, 200)}`);
      for (let i = 0; i < WARMUP; i++) await get(base, path, token);
      const ms: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const s = performance.now();
        await get(base, path, token);
        ms.push(performance.now() - s);
      }
      const p50 = pct(ms, 50);
      const verdict = targetMs === null ? '' : `${targetMs} ${p50 <= targetMs ? '(met)' : '(MISSED)'}`;
      console.log(
        `| ${label} | ${first.estimated ? '~' : ''}${first.total} | ${p50.toFixed(1)} | ${pct(ms, 99).toFixed(1)} | ${verdict} |`,
      );
    }

    // The export: every completed sample of one staff member, streamed; memory sampled meanwhile.
    // The export: every completed sample of one staff member, a search, and every completed sample
    // (3 in 8 of the table), streamed; the process's RSS and V8's used heap sampled meanwhile.
    for (const query of [`assignedStaffId=${someStaff}&status=completed`, 'q=durer', 'status=completed']) {
      const before = process.memoryUsage();
      let peak = before.rss;
      let heapPeak = before.heapUsed;
      const timer = setInterval(() => {
        const m = process.memoryUsage();
        peak = Math.max(peak, m.rss);
        heapPeak = Math.max(heapPeak, m.heapUsed);
      }, 20);
      const s = performance.now();
      const res = await get(base, `/api/admin/samples.csv?${query}`, token);
      const seconds = (performance.now() - s) / 1000;
      clearInterval(timer);
      const rows = res.body.length
        ? Math.round(res.bytes / (res.body.length / (res.body.split('\n').length - 1))) - 1
        : 0;
      const mb = (n: number) => (n / 1024 ** 2).toFixed(0);
      console.log(
        `export ${query}: ${(res.bytes / 1024 ** 2).toFixed(1)} MB, ~${rows.toLocaleString('en-US')} rows in ${seconds.toFixed(1)} s (${Math.round(rows / seconds).toLocaleString('en-US')} rows/s); server RSS ${mb(before.rss)} → peak ${mb(peak)} MB, heap used ${mb(before.heapUsed)} → peak ${mb(heapPeak)} MB`,
      );
    }
    await app.close();
    await database.close();
    await client.end();
  } finally {
    await cluster.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
