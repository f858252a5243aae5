// `npm run bench -- photos`: what photo copies cost (docs/product/photos.md).
// 1. Copy-making time per photo: a 12 MP JPEG (4000×3000, photo-like noise, ~3–4 MB) and a 12 MP
//    HEIC made from it with `heif-enc` (Debian libheif-examples; skipped with a message when absent).
// 2. The customer dashboard with 20 photo samples: the built product (DIST_DIR, else dist/; run
//    `npm run build` first) in headless Chromium; bytes of images transferred to draw it.
// BENCH_ONLY_DASHBOARD=1 runs part 2 alone; BENCH_SAMPLES changes its 20 samples.
// Results go to the "Photos" section of docs/benchmarks.md.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { OwnSampleListItem } from '../common/contracts/samples';
import { makePhotoCopies } from '../server/modules/photos/photo-copies';
import { phoneLikeJpeg } from './phone-photo';
import { SUBMISSION_FIELDS } from '../tests/support/factories';
import { launchBrowser, loginAs } from '../tests/support/browser';
import { startProduct } from '../tests/support/product';
import { call } from '../tests/support/test-app';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 20);
const BUDGET_BYTES = 1024 * 1024;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;

async function time(label: string, original: Buffer, mime: string) {
  const ms: number[] = [];
  let sizes = '';
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    const copies = await makePhotoCopies(original, mime);
    ms.push(performance.now() - start);
    sizes = `display ${kb(copies.display.length)} (${copies.width}×${copies.height}), thumbnail ${kb(copies.thumbnail.length)}`;
  }
  console.log(
    `${label} (${kb(original.length)}): median ${median(ms).toFixed(0)} ms, min ${Math.min(...ms).toFixed(0)} ms over ${RUNS}; ${sizes}`,
  );
}

async function dashboard(photo: Buffer) {
  const product = await startProduct({ RATE_LIMITS: 'off' }, { startTimeoutMs: 180_000 });
  const browser = await launchBrowser();
  try {
    const email = 'bench-photos@example.com';
    const password = 'bench-photos-1';
    await call(product, 'POST', '/api/register', {
      json: { email, password, firstName: 'B', lastName: 'P' },
    });
    const token = (
      (await call(product, 'POST', '/login', { json: { email, password } })).body as { token: string }
    ).token;
    for (let i = 0; i < SAMPLES; i++) {
      const form = new FormData();
      for (const [k, v] of Object.entries({ ...SUBMISSION_FIELDS, itemName: `Bench item ${i + 1}` }))
        form.append(k, v);
      form.append('photos', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), `phone-${i + 1}.jpg`);
      const res = await call(product, 'POST', '/api/samples', { token, form });
      if (res.status !== 201) throw new Error(`submission refused: ${res.status} ${res.text}`);
    }
    const started = Date.now();
    for (;;) {
      const list = (await call(product, 'GET', '/api/samples', { token })).body as OwnSampleListItem[];
      if (list.every((s) => s.thumbnailUrl)) break;
      if (Date.now() - started > 600_000) throw new Error('copies not made in 10 minutes');
      await new Promise((r) => setTimeout(r, 500));
    }
    console.log(
      `copies for ${SAMPLES} uploaded 12 MP photos made by the background job in ${((Date.now() - started) / 1000).toFixed(1)} s after the last upload`,
    );

    const context = await browser.newContext({
      baseURL: product.url,
      viewport: { width: 1366, height: 900 },
    });
    const page = await context.newPage();
    await loginAs(page, product.url, email, password);
    // Count at the network layer (Chrome DevTools Protocol), with the cache off: every image response
    // the dashboard receives, whether an <img> or a fetch turned into a blob URL, at its encoded size.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const imageRequests = new Set<string>();
    let imageBytes = 0;
    let images = 0;
    cdp.on('Network.responseReceived', (e) => {
      // blob: URLs are the fetched copies drawn from memory: nothing crosses the network for them.
      if (e.response.url.startsWith('blob:')) return;
      if (e.response.mimeType.startsWith('image/') || /\/Uploads\//.test(e.response.url))
        imageRequests.add(e.requestId);
    });
    cdp.on('Network.loadingFinished', (e) => {
      if (!imageRequests.has(e.requestId)) return;
      imageBytes += e.encodedDataLength;
      images += 1;
    });
    await page.goto('/dashboard');
    await page
      .locator('img[data-photo-state="ready"]')
      .nth(SAMPLES - 1)
      .waitFor({ timeout: 60_000 });
    await page.waitForLoadState('networkidle');
    console.log(
      `customer dashboard with ${SAMPLES} photo samples: ${images} images, ${kb(imageBytes)} transferred (budget ${kb(BUDGET_BYTES)}); the originals would be ${kb(photo.length * SAMPLES)}`,
    );
    await context.close();
    if (imageBytes >= BUDGET_BYTES) process.exitCode = 1;
  } finally {
    await browser.close();
    await product.stop();
  }
}

async function main() {
  console.log(`uptime: ${spawnSync('uptime', { encoding: 'utf8' }).stdout.trim()}`);
  const jpeg = await phoneLikeJpeg();
  await time('12 MP JPEG', jpeg, 'image/jpeg');
  const dir = mkdtempSync(join(tmpdir(), 'vl-bench-photos-'));
  try {
    writeFileSync(join(dir, 'in.jpg'), jpeg);
    const enc = spawnSync('heif-enc', ['-q', '50', '-o', join(dir, 'out.heic'), join(dir, 'in.jpg')], {
      encoding: 'utf8',
    });
    if (enc.error || enc.status !== 0) {
      console.log('12 MP HEIC: SKIPPED — heif-enc (Debian package libheif-examples) is not available');
    } else {
      await time('12 MP HEIC', readFileSync(join(dir, 'out.heic')), 'image/heic');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  await dashboard(jpeg.length > 5 * 1024 * 1024 ? await sharp(jpeg).jpeg({ quality: 80 }).toBuffer() : jpeg);
  console.log(`uptime: ${spawnSync('uptime', { encoding: 'utf8' }).stdout.trim()}`);
}

if (process.env.BENCH_ONLY_DASHBOARD) await dashboard(await phoneLikeJpeg());
else await main();
