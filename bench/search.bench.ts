// `npm run bench -- search`: the lab lists' search, filters and export on a large table
// (docs/decisions/0025-search.md). Starts a throwaway PostgreSQL (tests/support/postgres.ts), seeds
// BENCH_SAMPLES samples (default 10,000,000) with COPY through psql — realistic names with accents,
// items, e-mails, report codes on issued samples — serves the real app over HTTP and times sequential
// requests (one keep-alive connection): p50 and p99 of each search, each filter combined with a
// search, and the CSV export's throughput and the server's memory while it streams. Prints the
// database, table and index sizes and the seeding time. Results: docs/benchmarks.md, "Search".
// Options: BENCH_EXPORT_ONLY=1 (the exports alone), BENCH_CLUSTER_DIR=dir (keep the seeded cluster
// there and reuse it), EXPORT_BATCH_ROWS (the app's rows per export statement), BENCH_PAUSE_MS (the
// slow client's pause, default 3000), BENCH_EXPORT_HEAP_BOUND_MB (the constant-memory bound, default
// 32), BENCH_TRACE_GC=1 (V8's --trace-gc-nvp during the exports: what each scavenge promoted),
// BENCH_HEAP_SAMPLES=file (V8's sampling heap profile of the largest export, counting the objects a
// full collection freed: what was promoted and died in the old generation; summed by allocating
// function with `node bench/heap-samples.mjs file`).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { Session } from 'node:inspector/promises';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import pg from 'pg';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { type Database, openPostgres } from '../server/db/client';
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
  // BENCH_CLUSTER_DIR=dir keeps the cluster (and its seeded database) there: a later run with the
  // same BENCH_SAMPLES skips the seed and only measures.
  const keep = process.env.BENCH_CLUSTER_DIR || undefined;
  const cluster = await startPostgresCluster(
    ['shared_buffers=512MB', 'maintenance_work_mem=512MB', 'work_mem=16MB'],
    keep,
  );
  const dataDir = mkdtempSync(join(tmpdir(), 'vl-bench-'));
  try {
    // A database whose bench_seed row says its seed finished is reused; an unfinished one is redone.
    const dbName = `bench_${SAMPLES}`;
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    let seeded = false;
    if ((await admin.query(`select 1 from pg_database where datname = $1`, [dbName])).rows.length) {
      const probe = new pg.Client({ connectionString: cluster.urlFor(dbName) });
      await probe.connect();
      seeded = (await probe.query(`select to_regclass('bench_seed') is not null as done`)).rows[0].done;
      await probe.end();
    }
    if (!seeded) {
      await admin.query(`drop database if exists ${dbName} with (force)`);
      await admin.query(`create database ${dbName}`);
    }
    await admin.end();
    const url = cluster.urlFor(dbName);
    const database = await openPostgres(url, { max: 10 });
    const client = new pg.Client({ connectionString: url });
    await client.connect();

    let seedSeconds = 0;
    let copied = 0;
    let indexed = 0;
    let staffIds: number[];
    if (seeded) {
      console.log(`Reusing the seeded database ${dbName} in ${keep}`);
      staffIds = (
        await client.query<{ id: number }>(
          `select id from users where email like 'staff%@lab.test' order by id`,
        )
      ).rows.map((r) => r.id);
    } else {
      const people = await seedPeople(client, STAFF, CUSTOMERS);
      staffIds = people.staffIds;
      // The indexes are built after the COPY (as a restore does): one sort each instead of 10M inserts.
      const t0 = performance.now();
      indexed = await withIndexesAfter(client, 'samples', async () => {
        await copySamples(url, SAMPLES, people.customers, staffIds);
        copied = performance.now() - t0;
      });
      await client.query('analyze samples');
      await client.query(`insert into sample_id_buckets (bucket, rows)
      select id / 1000, count(*) from samples group by 1
      on conflict (bucket) do update set rows = excluded.rows`);
      seedSeconds = (performance.now() - t0) / 1000;
      await client.query('create table bench_seed as select now() as finished');
    }

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
      // The rows each export statement reads (the app's default unless set).
      EXPORT_BATCH_ROWS: process.env.EXPORT_BATCH_ROWS,
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

    await measureExports(client, base, token, database);
    await app.close();
    await database.close();
    await client.end();
  } finally {
    await cluster.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The CSV export's memory: exports of very different sizes (about 10,000, 100,000, 400,000 and up to
 * 1,000,000 rows, cut by the submission date), each after two full collections, V8's used heap and the RSS sampled
 * every 10 ms; then one export read by a client that stops reading for a while, counting the
 * batches the server reads meanwhile. Constant memory: every export's peak heap above its baseline
 * stays within BENCH_EXPORT_HEAP_BOUND_MB, whatever its size.
 */
async function measureExports(client: pg.Client, base: string, token: string, database: Database) {
  const load = () => os.loadavg()[0]?.toFixed(1);
  const mb = (n: number) => (n / 1024 ** 2).toFixed(1);
  const total = Number((await client.query('select count(*)::int as n from samples')).rows[0].n);
  // ~10k, ~100k, ~400k rows and the whole table up to a million (a 10M table's whole export would take
  // ten minutes for no more information).
  const wanted = [10_000, 100_000, 400_000].filter((n) => n < total);
  wanted.push(Math.min(total, 1_000_000));
  // The day from which the newest `n` samples were submitted: `from=` that day selects about n rows.
  const fromDays: { n: number; day: string }[] = [];
  for (const n of wanted) {
    const { rows } = await client.query(
      `select (submission_date at time zone 'UTC')::date::text as day from samples
       order by submission_date desc offset $1 limit 1`,
      [n - 1],
    );
    fromDays.push({ n, day: rows[0].day as string });
  }
  // Every statement the app sends through the pool, counted: the export's batches among them.
  const pool = (database.db as unknown as { $client: pg.Pool }).$client;
  let statements = 0;
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  (pool as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    statements++;
    return query(...args);
  };
  v8.setFlagsFromString('--expose-gc');
  if (process.env.BENCH_TRACE_GC === '1') v8.setFlagsFromString('--trace-gc-nvp');
  const gc = runInNewContext('gc') as () => void;

  console.log(`\nCSV export (load average ${load()} at the start)`);
  console.log(
    '| export | rows | MB | s | rows/s | heap: baseline → peak (rise) | heap kept after gc() | RSS: baseline → peak (rise) | load |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  const rises: { n: number; rise: number }[] = [];
  for (const { n, day } of fromDays) {
    gc();
    gc();
    const before = process.memoryUsage();
    let heapPeak = before.heapUsed;
    let rssPeak = before.rss;
    const timer = setInterval(() => {
      const m = process.memoryUsage();
      heapPeak = Math.max(heapPeak, m.heapUsed);
      rssPeak = Math.max(rssPeak, m.rss);
    }, 10);
    const sampled = process.env.BENCH_HEAP_SAMPLES && n === fromDays[fromDays.length - 1]?.n;
    const session = sampled ? new Session() : null;
    if (session) {
      session.connect();
      await session.post('HeapProfiler.startSampling', {
        samplingInterval: 64 * 1024,
        includeObjectsCollectedByMajorGC: true,
      });
    }
    const s = performance.now();
    const res = await streamCsv(base, `/api/admin/samples.csv?from=${day}`, token);
    const seconds = (performance.now() - s) / 1000;
    clearInterval(timer);
    if (session) {
      const { profile } = await session.post('HeapProfiler.stopSampling');
      writeFileSync(process.env.BENCH_HEAP_SAMPLES as string, JSON.stringify(profile));
      session.disconnect();
    }
    const rise = heapPeak - before.heapUsed;
    // Retention or garbage: what is still live once the export is over and two full collections ran.
    gc();
    gc();
    const kept = process.memoryUsage().heapUsed - before.heapUsed;
    rises.push({ n: res.rows, rise });
    console.log(
      `| from=${day} (~${n.toLocaleString('en-US')}) | ${res.rows.toLocaleString('en-US')} | ${mb(res.bytes)} | ${seconds.toFixed(1)} | ${Math.round(res.rows / seconds).toLocaleString('en-US')} | ${mb(before.heapUsed)} → ${mb(heapPeak)} (+${mb(rise)}) | ${kept >= 0 ? '+' : ''}${mb(kept)} | ${mb(before.rss)} → ${mb(rssPeak)} (+${mb(rssPeak - before.rss)}) | ${load()} |`,
    );
  }
  const bound = Number(process.env.BENCH_EXPORT_HEAP_BOUND_MB ?? 32) * 1024 ** 2;
  const worst = Math.max(...rises.map((r) => r.rise));
  const small = rises[0] as { n: number; rise: number };
  const large = rises[rises.length - 1] as { n: number; rise: number };
  console.log(
    `constant memory: ${worst <= bound ? 'met' : 'NOT met'} (rule: every export's peak heap rise within ${mb(bound)} MB; worst +${mb(worst)} MB; ${large.n.toLocaleString('en-US')} rows +${mb(large.rise)} MB against ${small.n.toLocaleString('en-US')} rows +${mb(small.rise)} MB, ${(large.rise / Math.max(small.rise, 1)).toFixed(2)}×; load average ${load()})`,
  );

  // A slow client: reads the first chunk, then stops reading for PAUSE_MS. The socket's buffers fill,
  // and a server that respects back-pressure stops reading batches until the client reads again.
  const largest = fromDays[Math.min(2, fromDays.length - 1)] as { n: number; day: string };
  const PAUSE_MS = Number(process.env.BENCH_PAUSE_MS ?? 3000);
  gc();
  gc();
  const before = process.memoryUsage();
  let heapPeak = before.heapUsed;
  const timer = setInterval(() => {
    heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
  }, 10);
  const startStatements = statements;
  let atPause = 0;
  let atResume = 0;
  const res = await streamCsv(base, `/api/admin/samples.csv?from=${largest.day}`, token, async (pause) => {
    atPause = statements - startStatements;
    await pause(PAUSE_MS);
    atResume = statements - startStatements;
  });
  clearInterval(timer);
  const all = statements - startStatements;
  console.log(
    `slow client (stops reading ${PAUSE_MS} ms after the first chunk): the server sent ${atPause} statements before the pause, ${atResume - atPause} during it (~${mb(((atResume - atPause) * res.bytes) / Math.max(all, 1))} MB of CSV, what the sockets buffer), ${all} in all for ${res.rows.toLocaleString('en-US')} rows; heap ${mb(before.heapUsed)} → peak ${mb(heapPeak)} MB (+${mb(heapPeak - before.heapUsed)}); load average ${load()}`,
  );
}

/**
 * GETs a CSV and counts its bytes and lines without keeping it. `onFirstChunk` may stop reading for a
 * while (the socket is paused: the kernel's buffers fill, then the server's writes wait).
 */
function streamCsv(
  base: string,
  path: string,
  token: string,
  onFirstChunk?: (pause: (ms: number) => Promise<void>) => Promise<void>,
) {
  return new Promise<{ rows: number; bytes: number }>((resolve, reject) => {
    const req = request(`${base}${path}`, { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`${path}: ${res.statusCode}`));
      let bytes = 0;
      let lines = 0;
      let first = true;
      res.on('data', (c: Buffer) => {
        bytes += c.length;
        for (let i = c.indexOf(10); i !== -1; i = c.indexOf(10, i + 1)) lines++;
        if (first && onFirstChunk) {
          first = false;
          res.pause();
          void onFirstChunk((ms) => new Promise((r) => setTimeout(r, ms))).then(() => res.resume(), reject);
        }
      });
      // The header line is not a row (the bench's names and items hold no line break).
      res.on('end', () => resolve({ rows: lines - 1, bytes }));
    });
    req.on('error', reject);
    req.end();
  });
}

await main();
