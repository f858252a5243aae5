// `npm run bench -- collections-import`: importing a CSV of 1,000 rows, each naming one photo, into a
// collection over HTTP, against the built product (`npm run build` first) on PGlite and on a
// PostgreSQL cluster started here (target: under 10 s, docs/product/collections.md). Timed: the
// whole request, from the first byte sent to the 201 (upload, photo checks and storage, the one
// transaction with 1,000 samples, files, jobs, history and audit events, and the mail). The photo
// copies are made afterwards by the job queue and are not part of the figure. The dry run of the same
// CSV (names only) is timed too. The load average is printed with the figures: the machine may be
// shared. Results go to the "Collections import" section of docs/benchmarks.md.
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { PHOTO_JPEG } from '../tests/support/factories';
import { callOk, loginToken, registerAccount } from '../tests/support/http';
import { startPostgresCluster } from '../tests/support/postgres';
import { startProduct } from '../tests/support/product';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 1000);
const TARGET_MS = 10_000;
const RUNS = Number(process.env.BENCH_IMPORT_RUNS ?? 1);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

function csv(): string {
  const lines = ['submitterName,submitterEmail,itemName,category,description,expertValuation,photos'];
  for (let i = 1; i <= ROWS; i++)
    lines.push(
      `Margaret Hale,margaret@example.com,Estate piece ${i},furniture-decorative,"Item ${i} of the estate, as listed",true,piece-${i}.jpg`,
    );
  return lines.join('\n');
}

function form(dryRun: boolean): FormData {
  const body = new FormData();
  body.append('file', new Blob([csv()], { type: 'text/csv' }), 'estate.csv');
  for (let i = 1; i <= ROWS; i++) {
    if (dryRun) body.append('photoNames', `piece-${i}.jpg`);
    else
      body.append('photos', new Blob([new Uint8Array(PHOTO_JPEG)], { type: 'image/jpeg' }), `piece-${i}.jpg`);
  }
  return body;
}

async function timedImport(url: string, token: string, id: number, dryRun: boolean) {
  const body = form(dryRun);
  const start = performance.now();
  const res = await fetch(`${url}/api/collections/${id}/import${dryRun ? '?dryRun=1' : ''}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body,
  });
  const text = await res.text();
  const ms = performance.now() - start;
  if (res.status !== (dryRun ? 200 : 201))
    throw new Error(`import answered ${res.status}: ${text.slice(0, 500)}`);
  return ms;
}

async function measure(label: string, env: Record<string, string>) {
  const product = await startProduct({ RATE_LIMITS: 'off', ...env });
  try {
    const who = {
      email: `bench-${Date.now()}@example.com`,
      password: 'bench-password-1',
      firstName: 'B',
      lastName: 'H',
    };
    await registerAccount(product, who);
    const token = await loginToken(product, who.email, who.password);
    const results: number[] = [];
    console.log(`${label}: load average before: ${load()}`);
    const dry = await (async () => {
      const c = await callOk<{ id: number }>(product, 'POST', '/api/collections', {
        token,
        json: { name: 'Dry run', purpose: 'estate-planning' },
      });
      return timedImport(product.url, token, c.id, true);
    })();
    // One import per database: the photo copies it queues (made in the background afterwards) would
    // compete with a second run for the two cores.
    for (let run = 0; run < RUNS; run++) {
      const c = await callOk<{ id: number }>(product, 'POST', '/api/collections', {
        token,
        json: { name: `Estate ${run}`, purpose: 'estate-planning' },
      });
      results.push(await timedImport(product.url, token, c.id, false));
    }
    const sorted = [...results].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
    console.log(
      `${label}: import of ${ROWS} rows with ${ROWS} photos: ${results.map((r) => `${(r / 1000).toFixed(2)} s`).join(', ')}; median ${(median / 1000).toFixed(2)} s (target < ${TARGET_MS / 1000} s: ${median < TARGET_MS ? 'met' : 'NOT met'}); dry run ${(dry / 1000).toFixed(2)} s`,
    );
    console.log(`${label}: load average after: ${load()}`);
  } finally {
    await product.stop();
  }
}

await measure('PGlite', {});
const cluster = await startPostgresCluster();
try {
  const client = new pg.Client({ connectionString: cluster.url });
  await client.connect();
  await client.query('create database bench_import');
  await client.end();
  await measure('PostgreSQL', { DATABASE_URL: cluster.urlFor('bench_import') });
} finally {
  cluster.stop();
}
