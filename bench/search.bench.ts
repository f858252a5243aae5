// `npm run bench -- search`: the lab lists' search, filters and export on a large table
// (docs/decisions/0025-search.md). Starts a throwaway PostgreSQL (tests/support/postgres.ts), seeds
// BENCH_SAMPLES samples (default 10,000,000) with COPY through psql — realistic names with accents,
// items, e-mails, report codes on issued samples — serves the real app over HTTP and times sequential
// requests (one keep-alive connection): p50 and p99 of each search, each filter combined with a
// search, and the CSV export's throughput and the server's memory while it streams. Prints the
// database, table and index sizes and the seeding time. Results: docs/benchmarks.md, "Search".
import { spawn } from 'node:child_process';
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
import { PG_BIN, startPostgresCluster } from '../tests/support/postgres';

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 10_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 60);
const WARMUP = 5;
const CUSTOMERS = 20_000;
const STAFF = 40;

// Seeded, deterministic choices: the same N gives the same table.
let state = 0x2545f491;
const rand = () => {
  state ^= state << 13;
  state ^= state >>> 17;
  state ^= state << 5;
  return (state >>> 0) / 4_294_967_296;
};
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;

const FIRST = [
  'Élise',
  'François',
  'Zoë',
  'Jürgen',
  'Søren',
  'Łukasz',
  'José',
  'María',
  'Noémie',
  'Anaïs',
  'Björn',
  'Inès',
  'Chloé',
  'Renée',
  'André',
  'Małgorzata',
  'Siobhán',
  'Ångström',
  'Hélène',
  'Dvořák',
  'James',
  'Mary',
  'Robert',
  'Patricia',
  'John',
  'Jennifer',
  'Michael',
  'Linda',
  'David',
  'Elizabeth',
  'William',
  'Barbara',
  'Richard',
  'Susan',
  'Thomas',
  'Margaret',
  'Charles',
  'Sarah',
  'Daniel',
  'Emma',
  'Giulia',
  'Matteo',
  'Sofía',
  'Lucía',
  'Hiroshi',
  'Yuki',
  'Priya',
  'Arjun',
  'Fatima',
  'Omar',
];
const LAST = [
  'Dürer',
  'Müller',
  'Lefèvre',
  'García',
  'Núñez',
  'Østergaard',
  'Kowalski',
  "O'Brien",
  'Smith',
  'Jones',
  'Brown',
  'Taylor',
  'Wilson',
  'Davies',
  'Evans',
  'Thomas',
  'Johnson',
  'Roberts',
  'Walker',
  'Wright',
  'Schröder',
  'Bäcker',
  'Côté',
  'Gagné',
  'Pérez',
  'Sánchez',
  'Rodríguez',
  'Fernández',
  'Gómez',
  'Martín',
  'Rossi',
  'Russo',
  'Ferrari',
  'Esposito',
  'Bianchi',
  'Romano',
  'Colombo',
  'Ricci',
  'Marino',
  'Greco',
  'Novák',
  'Svoboda',
  'Dvořáková',
  'Nowak',
  'Wiśniewski',
  'Lindqvist',
  'Håkansson',
  'Nieminen',
  'Virtanen',
  'Çelik',
  'Yamamoto',
  'Tanaka',
  'Sato',
  'Kim',
  'Lee',
  'Park',
  'Chen',
  'Wang',
  'Singh',
  'Patel',
];
const DOMAINS = ['example.com', 'mail.example', 'estates.example', 'gallery.example', 'antiques.example'];
const ADJECTIVE = [
  'Georgian',
  'Victorian',
  'Edwardian',
  'Regency',
  'Art Deco',
  'Art Nouveau',
  'Baroque',
  'Rococo',
  'Empire',
  'Biedermeier',
  'Ming style',
  'Qing',
  'Meiji',
  'Louis XV',
  'Louis XVI',
  'Arts and Crafts',
  'Mid-century',
  'Gilt',
  'Carved',
  'Painted',
  'Enamelled',
  'Inlaid',
  'Lacquered',
  'Chased',
  'Engraved',
];
const MATERIAL = [
  'silver',
  'porcelain',
  'oak',
  'walnut',
  'mahogany',
  'bronze',
  'brass',
  'gold',
  'ivory-free',
  'glass',
  'crystal',
  'faïence',
  'earthenware',
  'jade',
  'pewter',
  'rosewood',
  'satinwood',
  'marble',
  'tortoiseshell-free',
  'papier-mâché',
];
const OBJECT = [
  'teapot',
  'figurine',
  'vase',
  'clock',
  'writing desk',
  'chest of drawers',
  'candelabrum',
  'snuff box',
  'bureau',
  'mirror',
  'tureen',
  'bowl',
  'salver',
  'ewer',
  'urn',
  'plate',
  'cabinet',
  'armchair',
  'pocket watch',
  'brooch',
  'locket',
  'inkwell',
  'globe',
  'music box',
  'jardinière',
  'commode',
  'étagère',
];
const MAKER = [
  'Meissen',
  'Sèvres',
  'Wedgwood',
  'Chippendale',
  'Hepplewhite',
  'Tiffany',
  'Lalique',
  'Gallé',
  'Doulton',
  '',
];
/** One sample in 200,000 carries this word: the "rare word" search. */
const RARE = 'Fabergé';
const CODE_CHARS = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const STATUSES = [
  'submitted',
  'in-progress',
  'analysis',
  'review',
  'completed',
  'completed',
  'completed',
  'on-hold',
];

const csv = (v: string | number | null) => {
  if (v === null) return '';
  const s = String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

type Person = { id: number; first: string; last: string; email: string };

/** One CSV line of COPY samples(...). */
function sampleLine(i: number, customers: Person[], staffIds: number[], now: number): string {
  const owner = customers[Math.floor(rand() * customers.length)] as Person;
  const maker = pick(MAKER);
  const item = `${maker ? `${maker} ` : ''}${pick(ADJECTIVE)} ${pick(MATERIAL)} ${pick(OBJECT)}${
    i % 200_000 === 7 ? ` by ${RARE}` : ''
  }`;
  const status = pick(STATUSES);
  const submitted = new Date(now - Math.floor(rand() * 5 * 365 * 86_400_000));
  const updated = new Date(Math.min(now, submitted.getTime() + Math.floor(rand() * 60 * 86_400_000)));
  const assigned = rand() < 0.85 ? pick(staffIds) : null;
  let code: string | null = null;
  if (status === 'completed') {
    code = '';
    for (let k = 0; k < 8; k++) code += CODE_CHARS[Math.floor(rand() * CODE_CHARS.length)];
  }
  const urgency = rand() < 0.15 ? 'urgent' : 'standard';
  return [
    owner.id,
    csv(`${owner.first} ${owner.last}`),
    csv(owner.email),
    csv(item),
    'other',
    csv('Bench sample'),
    status,
    submitted.toISOString(),
    updated.toISOString(),
    assigned ?? '',
    urgency,
    code ?? '',
  ].join(',');
}

async function copySamples(url: string, customers: Person[], staffIds: number[]) {
  const psql = spawn(join(PG_BIN, 'psql'), [
    url,
    '-v',
    'ON_ERROR_STOP=1',
    '-c',
    `\\copy samples (user_id, submitter_name, submitter_email, item_name, category, description, status,
      submission_date, last_updated, assigned_staff_id, urgency_level, report_code) from stdin with (format csv)`,
  ]);
  let err = '';
  psql.stderr.on('data', (d) => (err += d));
  const done = new Promise<void>((resolve, reject) =>
    psql.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`psql exited ${code}: ${err}`)))),
  );
  const now = Date.now();
  const seen = new Set<string>();
  let chunk = '';
  for (let i = 1; i <= SAMPLES; i++) {
    let line = sampleLine(i, customers, staffIds, now);
    // Report codes are unique: a rare repeat is dropped.
    const code = line.slice(line.lastIndexOf(',') + 1);
    if (code) {
      if (seen.has(code)) line = line.slice(0, line.lastIndexOf(',') + 1);
      else if (seen.size < 3_000_000) seen.add(code);
    }
    chunk += `${line}\n`;
    if (chunk.length > 1 << 20) {
      if (!psql.stdin.write(chunk)) await new Promise((r) => psql.stdin.once('drain', r));
      chunk = '';
    }
    if (i % 1_000_000 === 0) console.log(`  … ${i.toLocaleString('en-US')} rows sent`);
  }
  psql.stdin.end(chunk);
  await done;
}

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

    const hash = await hashPassword('bench-password-1');
    const { rows: staffRows } = await client.query<{ id: number }>(
      `insert into users (email, password_hash, first_name, last_name, role)
       select 'staff' || g || '@lab.test', $1, 'Staff', 'Member ' || g, case g when 1 then 'admin' else 'staff' end
       from generate_series(1, ${STAFF}) g returning id`,
      [hash],
    );
    const staffIds = staffRows.map((r) => r.id);
    const people: Omit<Person, 'id'>[] = [];
    for (let i = 0; i < CUSTOMERS; i++) {
      const first = pick(FIRST);
      const last = pick(LAST);
      const local = `${first}.${last}`
        .normalize('NFD')
        .replace(/\p{Diacritic}/gu, '')
        .replace(/[^A-Za-z.]/g, '')
        .toLowerCase();
      people.push({ first, last, email: `${local}${i}@${pick(DOMAINS)}` });
    }
    const { rows: customerRows } = await client.query<{ id: number }>(
      `insert into users (email, password_hash, first_name, last_name)
       select e, $1, f, l from unnest($2::text[], $3::text[], $4::text[]) as t(e, f, l) returning id`,
      [hash, people.map((p) => p.email), people.map((p) => p.first), people.map((p) => p.last)],
    );
    const customers = customerRows.map((r, i) => ({ id: r.id, ...(people[i] as Omit<Person, 'id'>) }));

    // The indexes are built after the COPY (as a restore does): one sort each instead of 10M inserts.
    const { rows: indexDefs } = await client.query<{ indexname: string; indexdef: string }>(
      `select indexname, indexdef from pg_indexes where tablename = 'samples' and indexname <> 'samples_pkey'`,
    );
    for (const ix of indexDefs) await client.query(`drop index ${ix.indexname}`);
    const t0 = performance.now();
    await copySamples(url, customers, staffIds);
    const copied = performance.now() - t0;
    const t1 = performance.now();
    for (const ix of indexDefs) await client.query(ix.indexdef);
    const indexed = performance.now() - t1;
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
      `\nSamples: ${SAMPLES.toLocaleString('en-US')}; seeded in ${seedSeconds.toFixed(0)} s (COPY ${(copied / 1000).toFixed(0)} s, indexes ${(indexed / 1000).toFixed(0)} s)`,
    );
    for (const r of sizes.rows) console.log(`| ${r.name} | ${(Number(r.bytes) / 1024 ** 2).toFixed(0)} MB |`);
    console.log('\n| search | total (~ estimated) | p50 ms | p99 ms | target p50 |');
    console.log('| --- | --- | --- | --- | --- |');
    for (const [label, query, targetMs] of cases) {
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
    for (const query of [`assignedStaffId=${someStaff}&status=completed`, 'q=durer']) {
      const before = process.memoryUsage().rss;
      let peak = before;
      const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
      const s = performance.now();
      const res = await get(base, `/api/admin/samples.csv?${query}`, token);
      const seconds = (performance.now() - s) / 1000;
      clearInterval(timer);
      const rows = res.body.length
        ? Math.round(res.bytes / (res.body.length / (res.body.split('\n').length - 1))) - 1
        : 0;
      console.log(
        `export ${query}: ${(res.bytes / 1024 ** 2).toFixed(1)} MB, ~${rows.toLocaleString('en-US')} rows in ${seconds.toFixed(1)} s (${Math.round(rows / seconds).toLocaleString('en-US')} rows/s); server RSS ${(before / 1024 ** 2).toFixed(0)} → peak ${(peak / 1024 ** 2).toFixed(0)} MB`,
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
