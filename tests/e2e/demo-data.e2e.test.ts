import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SampleDetail, SampleListItem } from '../../common/contracts/samples';
import { seedDemo } from '../../server/seed/demo';
import { launchBrowser, newPage } from '../support/browser';
import { E2E_ADMIN, type Product, startProduct } from '../support/product';

// 14. `npm run seed:demo` makes a believable lab (docs/decisions/0014-fit-and-finish.md): every
// sample has a photo, reports fit their items, ages follow the dates, weights are plausible and the
// analysts are the team the About page shows.

const dataDir = mkdtempSync(join(tmpdir(), 'vl-demo-'));
let product: Product;
let browser: Browser;
let token = '';
let details: SampleDetail[] = [];

const METALS = ['Gold', 'Silver', 'Copper', 'Platinum'];
const percentOf = (d: SampleDetail, element: string) =>
  d.reportElements.find((e) => e.element === element)?.percentage ?? null;
const byName = (name: string) => {
  const d = details.find((s) => s.itemName.includes(name));
  if (!d) throw new Error(`no demo sample named like ${name}`);
  return d;
};
/** '26.73 g' → 26.73; '3.4 kg (four pieces)' → 3400. */
const grams = (weight: string | null) => {
  const m = /([\d.]+)\s*(kg|g)\b/.exec(weight ?? '');
  if (!m) return Number.NaN;
  return Number(m[1]) * (m[2] === 'kg' ? 1000 : 1);
};

beforeAll(async () => {
  const seeded = await seedDemo({
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    LOG_LEVEL: 'silent',
    ADMIN_EMAIL: E2E_ADMIN.email,
    ADMIN_PASSWORD: E2E_ADMIN.password,
  });
  if (!seeded.seeded) throw new Error('demo not seeded');
  product = await startProduct({}, { dataDir });
  const login = await fetch(`${product.url}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(E2E_ADMIN),
  });
  token = ((await login.json()) as { token: string }).token;
  const auth = { authorization: `Bearer ${token}` };
  const rows = (await (
    await fetch(`${product.url}/api/staff/samples`, { headers: auth })
  ).json()) as SampleListItem[];
  details = await Promise.all(
    rows.map(
      async (r) =>
        (await (await fetch(`${product.url}/api/samples/${r.id}`, { headers: auth })).json()) as SampleDetail,
    ),
  );
  browser = await launchBrowser('shell');
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await product?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('14. coherent demo data', () => {
  it('gives every sample a drawn photo with its copies made', async () => {
    expect(details.length).toBeGreaterThanOrEqual(8);
    for (const d of details) {
      const photos = d.files.filter((f) => f.fileCategory === 'photo');
      expect(photos.length, d.itemName).toBeGreaterThanOrEqual(1);
      const url = photos[0]?.thumbnailUrl;
      expect(url, d.itemName).toBeTruthy();
      const res = await fetch(`${product.url}${url}`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('image/jpeg');
    }
  });

  it('reports what each kind of item is made of', () => {
    const coin = byName('Silver Dollar');
    expect(coin.reportCode).toBeTruthy();
    expect(percentOf(coin, 'Silver')).toBe(90);
    expect(percentOf(coin, 'Gold')).toBeNull();
    const book = byName('Moby-Dick');
    expect(book.reportCode).toBeTruthy();
    expect(book.reportElements.filter((e) => METALS.includes(e.element))).toEqual([]);
    const watch = byName('Pocket Watch');
    expect(percentOf(watch, 'Gold')).toBe(75);
    const tea = byName('Tea Service');
    expect(percentOf(tea, 'Silver')).toBe(92.5);
    for (const d of details) {
      if (!d.reportElements.length) continue;
      const total = d.reportElements.reduce((sum, e) => sum + e.percentage, 0);
      expect(total, d.itemName).toBeLessThanOrEqual(100);
    }
  });

  it('states ages that follow the dates, and weights such things have', () => {
    for (const d of details) {
      const made = /\((?:c\. )?(\d{4})\)/.exec(d.estimatedAge ?? '');
      expect(made, `${d.itemName}: ${d.estimatedAge}`).not.toBeNull();
      const year = Number(made?.[1]);
      expect(Number.parseInt(d.estimatedAge ?? '', 10)).toBe(new Date(d.submissionDate).getFullYear() - year);
      // A year written in the name or description is the same year.
      const written = /\b(1[5-9]\d\d)\b/.exec(`${d.itemName} ${d.description}`);
      if (written) expect(Number(written[1]), d.itemName).toBe(year);
    }
    expect(grams(byName('Silver Dollar').weight)).toBeCloseTo(26.73);
    expect(grams(byName('Brooch').weight)).toBeLessThan(100);
    expect(grams(byName('Pocket Watch').weight)).toBeLessThan(200);
    expect(grams(byName('Landscape').weight)).toBeGreaterThan(1000);
  });

  it('has the About page’s team as the analysts, and every status in use', async () => {
    const { context, page } = await newPage(browser, { baseURL: product.url });
    await page.goto('/about');
    await page.getByRole('heading', { name: 'Our Team' }).waitFor();
    const team = await page.locator('main').innerText();
    await context.close();
    const analysts = new Set(
      details.flatMap((d) =>
        d.assignedStaff ? [`${d.assignedStaff.firstName} ${d.assignedStaff.lastName}`] : [],
      ),
    );
    expect(analysts.size).toBeGreaterThanOrEqual(2);
    for (const name of analysts) expect(team, name).toContain(name);
    for (const d of details)
      for (const h of d.statusHistory)
        if (h.updatedBy && h.status !== 'submitted')
          expect(team).toContain(`${h.updatedBy.firstName} ${h.updatedBy.lastName}`);
    expect(new Set(details.map((d) => d.status))).toEqual(
      new Set(['submitted', 'in-progress', 'analysis', 'review', 'completed', 'on-hold']),
    );
  });
});
