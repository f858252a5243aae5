// `npm run bench -- web-size`: what '/' costs a first-time visitor. Starts the built product
// (DIST_DIR, else dist/; run `npm run build` first), opens '/' in headless Chromium and reports
// the JavaScript it loads (gzip -9 of each file, as a compressing proxy or CDN would send it),
// Largest Contentful Paint and Total Blocking Time (long tasks over 50 ms until load + 1 s).
// Results go to the "Public pages" section of docs/benchmarks.md.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { launchBrowser } from '../tests/support/browser';
import { startProduct } from '../tests/support/product';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PATHS = (process.env.BENCH_PATHS ?? '/,/services,/contact').split(',');
const BUDGET_KB = 150;
const webDir = resolve(process.env.DIST_DIR ?? 'dist', 'web');

type Sample = { lcp: number; tbt: number; scripts: string[] };

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};

async function main() {
  const [product, browser] = await Promise.all([startProduct(), launchBrowser()]);
  let overBudget = false;
  try {
    for (const path of PATHS) {
      const samples: Sample[] = [];
      for (let i = 0; i < RUNS; i++) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
        const page = await context.newPage();
        await page.addInitScript(() => {
          // eslint-disable-next-line @typescript-eslint/no-explicit-any -- bench probe on window
          const w = window as any;
          w.__lcp = 0;
          w.__long = [] as { start: number; duration: number }[];
          new PerformanceObserver((l) => {
            for (const e of l.getEntries()) w.__lcp = e.startTime;
          }).observe({ type: 'largest-contentful-paint', buffered: true });
          new PerformanceObserver((l) => {
            for (const e of l.getEntries()) w.__long.push({ start: e.startTime, duration: e.duration });
          }).observe({ type: 'longtask', buffered: true });
        });
        await page.goto(`${product.url}${path}`, { waitUntil: 'load' });
        await page.waitForTimeout(1000);
        // An input ends LCP observation in real browsers; here we just read the last candidate.
        const result = await page.evaluate(() => {
          // eslint-disable-next-line @typescript-eslint/no-explicit-any -- bench probe on window
          const w = window as any;
          const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0;
          const tbt = (w.__long as { start: number; duration: number }[])
            .filter((t) => t.start + t.duration > fcp)
            .reduce((sum, t) => sum + Math.max(0, t.duration - 50), 0);
          const scripts = performance
            .getEntriesByType('resource')
            .map((e) => e.name)
            .filter((n) => new URL(n).pathname.endsWith('.js'));
          return { lcp: w.__lcp as number, tbt, scripts };
        });
        samples.push(result);
        await context.close();
      }
      const files = [...new Set(samples.flatMap((s) => s.scripts.map((u) => new URL(u).pathname)))];
      let raw = 0;
      let gz = 0;
      for (const f of files) {
        const buf = readFileSync(resolve(webDir, `.${f}`));
        raw += buf.length;
        gz += gzipSync(buf, { level: 9 }).length;
      }
      const gzKb = gz / 1024;
      if (path === '/' && gzKb >= BUDGET_KB) overBudget = true;
      console.log(
        `${path.padEnd(10)} JS files ${files.length}, ${(raw / 1024).toFixed(1)} KB raw, ${gzKb.toFixed(1)} KB gzip` +
          ` | LCP median ${median(samples.map((s) => s.lcp)).toFixed(0)} ms` +
          ` (min ${Math.min(...samples.map((s) => s.lcp)).toFixed(0)}, max ${Math.max(...samples.map((s) => s.lcp)).toFixed(0)})` +
          ` | TBT median ${median(samples.map((s) => s.tbt)).toFixed(0)} ms  (${RUNS} runs)`,
      );
    }
  } finally {
    await browser.close();
    await product.stop();
  }
  if (overBudget) {
    console.error(`'/' loads ${BUDGET_KB} KB gzip of JavaScript or more: over budget`);
    process.exit(1);
  }
}

await main();
