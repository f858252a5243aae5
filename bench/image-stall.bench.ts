// `npm run bench -- image-stall`: can photos stall the server? (docs/product/photos.md, security.md)
// The built product (DIST_DIR, else dist/; run `npm run build` first) is sent, by two customers at
// once, ten worst-case images it accepts: five 12 MP phone HEICs and five JPEGs of 7000×7000
// (49 MP, just under the 50 MP limit), plus two 8192×8192 HEIC bombs it must refuse. While their
// copies are made, GET /api/health is polled every 50 ms; each poll's delay counts from when it was
// due, so a blocked event loop shows. The server's RSS (its own process, from /proc) is sampled too.
// Budgets: health p99 under 200 ms, RSS growth under 256 MB. Results: docs/benchmarks.md, "Photos".
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';
import sharp from 'sharp';
import type { SampleDetail } from '../common/contracts/samples';
import { fixture, SUBMISSION_FIELDS } from '../tests/support/factories';
import { startProduct } from '../tests/support/product';
import { call } from '../tests/support/test-app';

const POLL_EVERY_MS = 50;
const P99_BUDGET_MS = 200;
const RSS_BUDGET_MB = 256;

const rssMb = (pid: number | undefined) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m?.[1] ?? 0) / 1024;
};
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? Number.NaN;
};

/** A 7000×7000 JPEG: a smooth picture with some grain, so it stays under the 5 MB file limit. */
async function bigJpeg(seed: number): Promise<Buffer> {
  const side = 7000;
  const small = await sharp({
    create: { width: 70, height: 70, channels: 3, background: { r: 120 + seed * 20, g: 90, b: 60 } },
  })
    .composite([
      {
        input: Buffer.from(Array.from({ length: 70 * 70 * 3 }, (_, i) => (i * 37 + seed * 101) % 256)),
        raw: { width: 70, height: 70, channels: 3 },
        blend: 'soft-light',
      },
    ])
    .raw()
    .toBuffer();
  return sharp(small, { raw: { width: 70, height: 70, channels: 3 } })
    .resize(side, side, { kernel: 'cubic' })
    .jpeg({ quality: 70 })
    .toBuffer();
}

function form(files: [string, Buffer, string][]) {
  const f = new FormData();
  for (const [k, v] of Object.entries(SUBMISSION_FIELDS)) f.append(k, v);
  for (const [name, bytes, type] of files)
    f.append('photos', new Blob([new Uint8Array(bytes)], { type }), name);
  return f;
}

async function main() {
  const heic = fixture('phone-12mp.heic');
  const bomb = fixture('bomb-8192.heic');
  const jpegs = await Promise.all([0, 1, 2, 3, 4].map(bigJpeg));
  for (const j of jpegs)
    if (j.length > 5 * 1024 * 1024) throw new Error(`a test JPEG is ${j.length} bytes, over the file limit`);

  const product = await startProduct({ RATE_LIMITS: 'off' }, { startTimeoutMs: 180_000 });
  try {
    const customers: string[] = [];
    for (const n of [1, 2]) {
      const email = `stall-${n}@example.com`;
      const password = 'stall-bench-password-1';
      await call(product, 'POST', '/api/register', {
        json: { email, password, firstName: 'Stall', lastName: `Bench${n}` },
      });
      const login = await call(product, 'POST', '/login', { json: { email, password } });
      customers.push((login.body as { token: string }).token);
    }
    // Settle, then the baseline.
    await new Promise((r) => setTimeout(r, 2000));
    const rssBefore = rssMb(product.pid);
    let rssPeak = rssBefore;

    const submissions = [
      ...[0, 1, 2, 3, 4].map((i) => ({
        token: customers[i % 2] ?? '',
        files: [[`phone-${i}.heic`, heic, 'image/heic']],
      })),
      ...jpegs.map((j, i) => ({
        token: customers[(i + 1) % 2] ?? '',
        files: [[`big-${i}.jpg`, j, 'image/jpeg']],
      })),
    ] as { token: string; files: [string, Buffer, string][] }[];

    // The health poller runs in its own thread, so the time this process spends building and
    // sending the uploads never counts as the server's delay.
    const poller = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
       let stop = false;
       parentPort.on('message', () => { stop = true; });
       (async () => {
         const delays = [], dueAt = [], started = performance.now();
         for (let k = 0; !stop; k++) {
           const due = started + k * workerData.every;
           const wait = due - performance.now();
           if (wait > 0) await new Promise((r) => setTimeout(r, wait));
           const res = await fetch(workerData.url + '/api/health');
           await res.arrayBuffer();
           delays.push(performance.now() - due);
           dueAt.push(due - started);
         }
         parentPort.postMessage({ delays, dueAt });
       })();`,
      { eval: true, workerData: { url: product.url, every: POLL_EVERY_MS } },
    );
    const polled = new Promise<{ delays: number[]; dueAt: number[] }>((resolve) =>
      poller.once('message', resolve),
    );
    await new Promise((r) => setTimeout(r, 300));
    const started = performance.now();
    const sent = Promise.all(
      submissions.map((s) => call(product, 'POST', '/api/samples', { token: s.token, form: form(s.files) })),
    );
    const bombs = Promise.all(
      [0, 1].map((i) =>
        call(product, 'POST', '/api/samples', {
          token: customers[i] ?? '',
          form: form([[`bomb-${i}.heic`, bomb, 'image/heic']]),
        }),
      ),
    );

    let ids: { id: number; token: string }[] | null = null;
    void sent.then((answers) => {
      ids = answers.map((a, i) => {
        if (a.status !== 201) throw new Error(`submission ${i} answered ${a.status}`);
        return { id: (a.body as { id: number }).id, token: submissions[i]?.token ?? '' };
      });
    });
    const pending = async () => {
      if (!ids) return true;
      for (const { id, token } of ids) {
        const d = (await call(product, 'GET', `/api/samples/${id}`, { token })).body as SampleDetail;
        if (d.files.some((f) => f.fileCategory === 'photo' && f.processing)) return true;
      }
      return false;
    };

    let busy = true;
    const watcher = (async () => {
      while (busy) {
        await new Promise((r) => setTimeout(r, 1000));
        busy = await pending();
        rssPeak = Math.max(rssPeak, rssMb(product.pid));
        if (performance.now() - started > 600_000) throw new Error('photos not done within 10 minutes');
      }
    })();
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMb(product.pid))), 100);
    await watcher;
    clearInterval(sampler);
    poller.postMessage('stop');
    const { delays, dueAt } = await polled;
    await poller.terminate();
    const refused = (await bombs).map((b) => b.status);
    const seconds = (performance.now() - started) / 1000;
    const p99 = pct(delays, 99);
    const slow = delays
      .map((d, i) => ({ d, at: dueAt[i] ?? 0 }))
      .filter((x) => x.d > 100)
      .map((x) => `${x.d.toFixed(0)} ms at ${(x.at / 1000).toFixed(1)} s`);
    console.log(`polls over 100 ms: ${slow.length ? slow.join(', ') : 'none'}`);
    const growth = rssPeak - rssBefore;
    console.log(
      `load average before: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    console.log(
      `ten images (5 × 12 MP HEIC, 5 × 49 MP JPEG ${(jpegs.reduce((a, j) => a + j.length, 0) / 5 / 1048576).toFixed(1)} MB avg) processed in ${seconds.toFixed(1)} s; bombs answered ${refused.join(', ')}`,
    );
    console.log(
      `health: ${delays.length} polls, median ${pct(delays, 50).toFixed(0)} ms, p99 ${p99.toFixed(0)} ms, max ${Math.max(...delays).toFixed(0)} ms (budget p99 < ${P99_BUDGET_MS} ms): ${p99 < P99_BUDGET_MS ? 'met' : 'NOT met'}`,
    );
    console.log(
      `server RSS: ${rssBefore.toFixed(0)} MB before, peak ${rssPeak.toFixed(0)} MB, growth ${growth.toFixed(0)} MB (budget < ${RSS_BUDGET_MB} MB): ${growth < RSS_BUDGET_MB ? 'met' : 'NOT met'}`,
    );
    if (refused.some((s) => s !== 413))
      throw new Error(`a bomb was not refused with 413: ${refused.join(', ')}`);
    if (p99 >= P99_BUDGET_MS || growth >= RSS_BUDGET_MB) process.exitCode = 1;
  } finally {
    await product.stop('SIGTERM');
  }
}

await main();
