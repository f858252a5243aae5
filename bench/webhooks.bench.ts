// `npm run build && npm run bench -- webhooks`: how soon a partner's system hears of an event. The
// built product (on PGlite, then on a PostgreSQL cluster started here) delivers to an HTTP server in
// this process (WEBHOOKS_ALLOW_LOOPBACK=1); each of 50 status changes over the API is timed from the
// moment the request is sent until the endpoint has received its `sample.status_changed` delivery.
// Changes one after another, then a burst of 20 at once. The load average is printed with the
// figures: the machine may be shared. Target (docs/product/partners.md): median under 2 s.
// Results go to the "Webhook delivery" section of docs/benchmarks.md.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { SampleStatus } from '../common/domain/samples';
import { submitSample } from '../tests/support/factories';
import { callOk, loginToken, registerAccount } from '../tests/support/http';
import { startPostgresCluster } from '../tests/support/postgres';
import { E2E_ADMIN, startProduct } from '../tests/support/product';

const SEQUENTIAL = Number(process.env.BENCH_WEBHOOKS ?? 50);
const BURST = 20;
const TARGET_MEDIAN_MS = 2000;
const STATUSES: SampleStatus[] = ['in-progress', 'analysis', 'review'];

const fmt = (ms: number) => `${ms.toFixed(0)} ms`;
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** The partner's endpoint: calls back whoever waits for the `sampleId:status` a delivery names. */
const waiting = new Map<string, () => void>();
const arrived = new Set<string>();
const receiver = createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (c: string) => (body += c));
  req.on('end', () => {
    res.writeHead(200).end('ok');
    const event = JSON.parse(body) as { type: string; data: { sampleId?: number; status?: string } };
    if (event.type !== 'sample.status_changed') return;
    const key = `${event.data.sampleId}:${event.data.status}`;
    arrived.add(key);
    waiting.get(key)?.();
  });
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/events`;

const delivered = (key: string) =>
  new Promise<void>((resolve, reject) => {
    if (arrived.has(key)) return resolve();
    const timer = setTimeout(() => reject(new Error(`no delivery for ${key} within 60 s`)), 60_000);
    waiting.set(key, () => {
      clearTimeout(timer);
      waiting.delete(key);
      resolve();
    });
  });

async function measure(label: string, env: Record<string, string>) {
  const product = await startProduct(
    { WEBHOOKS_ALLOW_LOOPBACK: '1', RATE_LIMITS: 'off', LOG_LEVEL: 'warn', ...env },
    { startTimeoutMs: 150_000 },
  );
  try {
    const account = {
      email: `bench-hooks-${Date.now()}@example.com`,
      password: 'bench-password-1',
      firstName: 'Wes',
      lastName: 'Hook',
    };
    await registerAccount(product, account);
    const customer = await loginToken(product, account.email, account.password);
    const admin = await loginToken(product, E2E_ADMIN.email, E2E_ADMIN.password);
    await callOk(product, 'POST', '/api/webhooks', {
      token: customer,
      json: { url: receiverUrl, events: ['sample.status_changed'] },
    });
    const samples: number[] = [];
    for (let i = 0; i < Math.ceil((SEQUENTIAL + BURST) / STATUSES.length); i++)
      samples.push(await submitSample(product, customer));

    let next = 0;
    /** One status change over the API, timed until its delivery is at the endpoint. */
    async function timedChange(): Promise<number> {
      const i = next++;
      const id = samples[Math.floor(i / STATUSES.length)] as number;
      const status = STATUSES[i % STATUSES.length] as SampleStatus;
      const start = performance.now();
      const arrival = delivered(`${id}:${status}`);
      await callOk(product, 'POST', `/api/staff/samples/${id}/status`, {
        token: admin,
        json: { status, comment: '' },
      });
      await arrival;
      return performance.now() - start;
    }
    const report = (what: string, times: number[]) => {
      const sorted = [...times].sort((a, b) => a - b);
      const median = quantile(sorted, 0.5);
      console.log(
        `${label}, ${what}: n=${sorted.length} median ${fmt(median)}, p95 ${fmt(quantile(sorted, 0.95))}, ` +
          `max ${fmt(sorted[sorted.length - 1] ?? Number.NaN)} (target median < ${TARGET_MEDIAN_MS / 1000} s: ` +
          `${median < TARGET_MEDIAN_MS ? 'met' : 'NOT met'})`,
      );
    };
    console.log(`${label}: load average before: ${load()} (${process.arch})`);
    const sequential: number[] = [];
    for (let i = 0; i < SEQUENTIAL; i++) sequential.push(await timedChange());
    report('one after another', sequential);
    const burst = await Promise.all(Array.from({ length: BURST }, () => timedChange()));
    report(`burst of ${BURST} at once`, burst);
    console.log(`${label}: load average after: ${load()}`);
  } finally {
    await product.stop();
  }
}

try {
  await measure('PGlite', {});
  const cluster = await startPostgresCluster();
  try {
    const client = new pg.Client({ connectionString: cluster.url });
    await client.connect();
    await client.query('create database bench_webhooks');
    await client.end();
    await measure('PostgreSQL', { DATABASE_URL: cluster.urlFor('bench_webhooks') });
  } finally {
    cluster.stop();
  }
} finally {
  await new Promise((r) => receiver.close(r));
}
