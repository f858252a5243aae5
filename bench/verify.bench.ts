// `npm run bench -- verify`: GET /api/reports/verify/{code} against 100,000 issued reports on a
// throwaway PostgreSQL, side by side in the same run with a minimal `node:http` + `pg` handler that
// runs the very same SQL as a named prepared statement. Each round measures the minimal handler, the
// app with rate limits off and the app with the production rate limits on (each request from its own
// X-Forwarded-For address, so the limiter keeps a new entry per request but never refuses: its worst
// case), in an order that rotates; each ratio is the median round's. Every report is a full
// valuation report (identification, verdicts, value, texts, six photos), so both run the SQL with
// the content the answer is built from. Prints the load average and a ready-to-paste row; exits 1
// when a median round's ratio misses its target. BENCH_CLUSTER_DIR=dir keeps the seeded cluster in
// dir and reuses it on the next run (no second seed).
// Results go to the "Report verification" section of docs/benchmarks.md.
import { randomInt } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { issueReportBody } from '../common/contracts/reports';
import type { VerificationResponse } from '../common/contracts/verification';
import { REPORT_CODE_ALPHABET } from '../common/domain/reports';
import { reportContentOf } from '../server/modules/reports/issue-report';
import { valuationReport } from '../tests/support/factories';
import { openPostgres } from '../server/db/client';
import { startPostgresCluster } from '../tests/support/postgres';
import { clusterCpuMicros, machineTicks, ownCpuMicros, processCpuMicros } from './process-cpu';
import { loadAverage, loadVerify, median, type Result, startTarget, type Target } from './verify-harness';

const REPORTS = Number(process.env.BENCH_REPORTS ?? 100_000);
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
const CONNECTIONS = 10;
const POOL = 10;
/** The app with rate limits off, and with them on, against the minimal handler (median round). */
const TARGET_RATIO = 0.85;
const TARGET_LIMITED_RATIO = 0.8;
const PHOTOS = 6;

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
type Name = 'minimal' | 'app' | 'limited';

/** The database's seeded codes: a kept cluster's (BENCH_CLUSTER_DIR) when it holds a finished seed. */
async function seededCodes(url: string): Promise<string[] | null> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const done = await client
      .query<{ reports: number }>('select reports from bench_seed')
      .then((r) => r.rows[0]?.reports)
      .catch(() => undefined);
    if (done !== REPORTS) return null;
    const { rows } = await client.query<{ c: string }>(
      'select report_code as c from samples where report_code is not null order by id',
    );
    return rows.map((r) => r.c);
  } finally {
    await client.end();
  }
}

async function main() {
  const loadAtStart = loadAverage();
  const keep = process.env.BENCH_CLUSTER_DIR || undefined;
  const cluster = await startPostgresCluster(
    (process.env.BENCH_PG_SETTINGS ?? '').split(/\s+/).filter(Boolean),
    keep,
  );
  const targets: Target[] = [];
  try {
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    const dbName = `verify_full_${REPORTS}`;
    const exists = (await admin.query('select 1 from pg_database where datname = $1', [dbName])).rowCount;
    const url = cluster.urlFor(dbName);
    let codes = exists ? await seededCodes(url) : null;
    if (codes) console.log(`reusing ${codes.length} seeded issued reports in ${keep}`);
    else {
      if (exists) await admin.query(`drop database ${dbName}`);
      await admin.query(`create database ${dbName}`);
      // Opening the app's database applies its migrations.
      await (await openPostgres(url, { max: 1 })).close();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const t0 = Date.now();
      codes = await seed(client);
      await client.query('create table bench_seed (reports integer not null)');
      await client.query('insert into bench_seed values ($1)', [REPORTS]);
      await client.end();
      console.log(`seeded ${codes.length} issued reports in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    }
    await admin.end();
    const allCodes = codes;
    const database = await openPostgres(url, { max: POOL });
    const [size] = await database.queryTextRows(
      'bench_size',
      "select pg_size_pretty(pg_database_size(current_database())), current_setting('shared_buffers')",
      [],
    );
    console.log(`database ${size?.[0]}, shared_buffers ${size?.[1]}`);

    // Each server under test runs in its own process (bench/verify-target.ts), so the load
    // generator in this process never steals its event loop. BENCH_CPU_PROFILE_DIR=dir writes a V8
    // CPU profile of each (minimal, app, limited) into dir when it stops.
    const profileDir = process.env.BENCH_CPU_PROFILE_DIR;
    const start = async (name: string, env: Record<string, string>) => {
      const t = await startTarget({
        DATABASE_URL: url,
        ...env,
        BENCH_CPU_PROFILE: profileDir ? join(profileDir, `${name}.cpuprofile`) : '',
      });
      targets.push(t);
      return t;
    };
    const servers: Record<Name, Target> = {
      minimal: await start('minimal', { MODE: 'minimal' }),
      app: await start('app', { MODE: 'app', RATE_LIMITS: 'off' }),
      limited: await start('limited', { MODE: 'app', RATE_LIMITS: 'on' }),
    };

    let at = randomInt(allCodes.length);
    const nextCode = () => {
      at = (at + 1) % allCodes.length;
      return allCodes[at] as string;
    };
    /**
     * One load run, with the CPU time it cost per answered request: in the server's process, in
     * PostgreSQL (every backend: the lookup, and the app's verification log) and in the load generator
     * (this process: sending, and parsing each answer's headers and body).
     */
    const measure = async (name: Name | 'fastify', target: Target): Promise<Measured> => {
      const server0 = processCpuMicros(target.pid);
      const database0 = clusterCpuMicros(cluster.dataDir);
      const generator0 = ownCpuMicros();
      const machine0 = machineTicks();
      const result = await loadVerify(target.url, nextCode, {
        connections: CONNECTIONS,
        seconds: DURATION_S,
        spoofAddresses: name === 'limited',
      });
      const n = Math.max(1, result.requests.total);
      const machine = machineTicks();
      const busy = machine.busy - machine0.busy;
      const c = {
        server: (processCpuMicros(target.pid) - server0) / n,
        database: (clusterCpuMicros(cluster.dataDir) - database0) / n,
        generator: (ownCpuMicros() - generator0) / n,
      };
      // Each load run as it went: how busy the machine's cores were (under 100 % means the answers
      // waited on something other than CPU) and each process's CPU per answer.
      console.log(
        `  ${name.padEnd(8)} ${result.requests.average.toFixed(0).padStart(6)} req/s, cores ${((100 * busy) / Math.max(1, busy + machine.idle - machine0.idle)).toFixed(0)} % busy, µs per answer ${c.server.toFixed(0)} + ${c.database.toFixed(0)} + ${c.generator.toFixed(0)} = ${(c.server + c.database + c.generator).toFixed(0)}`,
      );
      return { ...result, cpu: c };
    };

    // All three answer a real report: the app with the public fields (identification, verdicts, six
    // photo links, no value), the minimal handler with the row the same SQL returns.
    const sample = allCodes[0]?.toLowerCase() ?? '';
    for (const name of ['app', 'limited'] as const) {
      const app = (await (
        await fetch(`${servers[name].url}/api/reports/verify/${sample}`)
      ).json()) as VerificationResponse;
      if (
        !app.identification ||
        !app.authenticity ||
        !app.condition ||
        app.photos.length !== PHOTOS ||
        app.valuation !== null
      )
        throw new Error(`unexpected answer: ${JSON.stringify(app)}`);
    }
    const minimal = (await (
      await fetch(`${servers.minimal.url}/api/reports/verify/${sample}`)
    ).json()) as Record<string, unknown>;
    const current = Object.values(minimal).find(
      (v): v is { content: { photoIds: number[] } } => typeof v === 'object' && v !== null && 'content' in v,
    );
    if (current?.content.photoIds.length !== PHOTOS)
      throw new Error(`unexpected answer: ${JSON.stringify(minimal)}`);

    // Warm all three, then rounds whose order rotates, so that each sees the same machine load and
    // none always runs right after another.
    const names: Name[] = ['minimal', 'app', 'limited'];
    for (const name of names) await measure(name, servers[name]);
    const rounds: Record<Name, Measured>[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const round: Partial<Record<Name, Measured>> = {};
      for (let k = 0; k < names.length; k++) {
        const name = names[(r + k) % names.length] as Name;
        round[name] = await measure(name, servers[name]);
      }
      rounds.push(round as Record<Name, Measured>);
    }
    // BENCH_FASTIFY=1: one more pass of bare Fastify + pg with the same SQL, right after a pass of
    // the minimal handler, to split the gap into Fastify's own share and the app's.
    let bareFastify: { minimal: Measured; fastify: Measured } | undefined;
    if (process.env.BENCH_FASTIFY === '1') {
      const fastify = await start('fastify', { MODE: 'fastify' });
      await measure('fastify', fastify);
      bareFastify = {
        minimal: await measure('minimal', servers.minimal),
        fastify: await measure('fastify', fastify),
      };
    }
    const loadAtEnd = loadAverage();
    // PostgreSQL's own background work during the run (its CPU counts in whichever round it fell).
    const maintenance = await database.queryTextRows(
      'bench_maintenance',
      'select relname, autovacuum_count, autoanalyze_count from pg_stat_user_tables where autovacuum_count + autoanalyze_count > 0 order by relname',
      [],
    );
    for (const t of targets) await t.close();

    const rps = (name: Name) => median(rounds.map((r) => r[name].requests.average));
    // The machine is shared: each ratio is taken per round (the servers measured seconds apart) and
    // the median round is the result; every round is printed.
    const ratioOf = (name: Name) =>
      median(rounds.map((r) => r[name].requests.average / r.minimal.requests.average));
    const ratio = ratioOf('app');
    const limitedRatio = ratioOf('limited');
    const met = ratio >= TARGET_RATIO;
    const limitedMet = limitedRatio >= TARGET_LIMITED_RATIO;
    const last = rounds[rounds.length - 1];
    if (!last) throw new Error('no rounds');
    console.log(
      `GET /api/reports/verify/{code}, ${REPORTS} issued valuation reports (${PHOTOS} photos each), ${CONNECTIONS} connections, ${DURATION_S} s x ${ROUNDS} rounds:`,
    );
    const labels: Record<Name, string> = {
      minimal: 'minimal node:http + pg (prepared)',
      app: 'app, rate limits off',
      limited: 'app, rate limits on (distinct addresses)',
    };
    for (const name of names)
      console.log(
        `  ${labels[name].padEnd(44)} ${rps(name).toFixed(0).padStart(6)} req/s (median round)   last round p50 ${last[name].latency.p50} ms, p99 ${last[name].latency.p99} ms, non-2xx ${last[name].non2xx}`,
      );
    const roundsText = rounds
      .map((r) => names.map((n) => r[n].requests.average.toFixed(0)).join('/'))
      .join(', ');
    console.log(`  rounds (minimal / app / limited req/s): ${roundsText}`);
    console.log(
      `  app, rate limits off / minimal, median round: ${(ratio * 100).toFixed(0)} % (target ${TARGET_RATIO * 100} %: ${met ? 'met' : 'NOT met'})`,
    );
    console.log(
      `  app, rate limits on / minimal, median round: ${(limitedRatio * 100).toFixed(0)} % (target ${TARGET_LIMITED_RATIO * 100} %: ${limitedMet ? 'met' : 'NOT met'})`,
    );
    const limitedShare = `${(median(rounds.map((r) => r.limited.requests.average / r.app.requests.average)) * 100).toFixed(0)} %`;
    console.log(`  rate limits on / off, median round: ${limitedShare}`);
    if (bareFastify) {
      const f = bareFastify.fastify.requests.average;
      const m = bareFastify.minimal.requests.average;
      console.log(
        `  bare Fastify + pg, same SQL: ${f.toFixed(0)} req/s against the minimal handler's ${m.toFixed(0)} in the pass before (${Math.round((100 * f) / m)} %)`,
      );
    }
    // Where each answer's CPU goes on the whole machine (median round per part). When the two cores
    // are the limit — a quiet machine under this load — requests per second follow the totals.
    const split = (name: Name) => {
      const server = median(rounds.map((r) => r[name].cpu.server));
      const database = median(rounds.map((r) => r[name].cpu.database));
      const generator = median(rounds.map((r) => r[name].cpu.generator));
      return { server, database, generator, total: server + database + generator };
    };
    const showSplit = (s: CpuShare & { total: number }) =>
      `${s.server.toFixed(0)} + ${s.database.toFixed(0)} + ${s.generator.toFixed(0)} = ${s.total.toFixed(0)} µs`;
    const splits = Object.fromEntries(names.map((n) => [n, split(n)])) as Record<
      Name,
      ReturnType<typeof split>
    >;
    console.log(
      `  CPU per answer (server + PostgreSQL + load generator, median round): ${names.map((n) => `${n} ${showSplit(splits[n])}`).join('; ')}`,
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
      `| ${new Date().toISOString().slice(0, 16).replace('T', ' ')} | ${loadAtStart} → ${loadAtEnd} | ${names.map((n) => rps(n).toFixed(0)).join(' / ')} | **${(ratio * 100).toFixed(0)} %** ${met ? 'met' : 'NOT met'} | **${(limitedRatio * 100).toFixed(0)} %** ${limitedMet ? 'met' : 'NOT met'} | ${names.map((n) => showSplit(splits[n])).join(' / ')} |`,
    );
    if (!met || !limitedMet) process.exitCode = 1;
    await database.close();
  } finally {
    for (const t of targets) await t.close();
    cluster.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
