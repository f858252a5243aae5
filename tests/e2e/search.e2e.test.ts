import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displaySampleId } from '../../common/domain/samples';
import { openPglite } from '../../server/db/client';
import { downloadCsv, launchBrowser, loginAs, newPage, seriousAxeViolations } from '../support/browser';
import { shot } from '../support/e2e';
import { callOk, loginToken, registerAccount } from '../support/http';
import { E2E_ADMIN, type Product, startProduct } from '../support/product';

// Finding a sample (docs/decisions/0025-search.md): the front desk types a client's name without its
// accents, filters, sorts, opens a result and comes back to the same view; the staff dashboard's
// counters are the server's, past the 500 rows a page once held.

let product: Product;
let browser: Browser;

const client = {
  email: 'elise.durer@example.com',
  password: 'Gilded-harpsichord-71',
  firstName: 'Élise',
  lastName: 'Dürer',
};
const analyst = {
  email: 'noor.analyst@example.com',
  password: 'Verdigris-sextant-58',
  firstName: 'Noor',
  lastName: 'Analyst',
};
/** The work list seeded for the analyst: more than the 500 rows a page held, in four statuses. */
const SEEDED = { submitted: 260, analysis: 150, 'in-progress': 60, completed: 70 } as const;
const SEEDED_TOTAL = Object.values(SEEDED).reduce((a, b) => a + b, 0);

let analystId = 0;
/** An estate's account: past ten samples, its dashboard gets a search box and a status filter. */
/** A customer with exactly ten samples: no search box yet. */
const collector = {
  email: 'ten.samples@example.com',
  password: 'Porcelain-tureen-48',
  firstName: 'Tess',
  lastName: 'Collector',
};
const estate = {
  email: 'estate.office@example.com',
  password: 'Lacquered-bureau-93',
  firstName: 'Estate',
  lastName: 'Office',
};

const dataDir = mkdtempSync(join(tmpdir(), 'vl-e2e-search-'));

beforeAll(async () => {
  [product, browser] = await Promise.all([startProduct({}, { dataDir }), launchBrowser('shell')]);
  const owner = await registerAccount(product, client);
  const staff = await registerAccount(product, analyst);
  const estateAccount = await registerAccount(product, estate);
  const collectorAccount = await registerAccount(product, collector);
  analystId = staff.id;
  const adminToken = await loginToken(product, E2E_ADMIN.email, E2E_ADMIN.password);
  await callOk(product, 'POST', `/api/admin/users/${staff.id}/role`, {
    token: adminToken,
    json: { role: 'staff' },
  });
  // Seeded straight into the product's database while it is stopped: 540 samples in one statement.
  await product.stop();
  const database = await openPglite(join(dataDir, 'db'));
  const common = sql`category, description, submitter_email, user_id`;
  for (const [status, n] of Object.entries(SEEDED))
    await database.db.execute(sql`
      insert into samples (item_name, submitter_name, status, assigned_staff_id, submission_date, ${common})
      select 'Lot ' || g, 'Bulk Consignor', ${status}, ${staff.id}, now() - (g || ' hours')::interval,
        'furniture-decorative', 'Seeded.', 'bulk@example.com', ${owner.id}
      from generate_series(1, ${n}) g`);
  const day = (d: number) => new Date(Date.UTC(2026, 0, d, 10)).toISOString();
  for (const [item, status, d] of [
    ['Meissen figurine', 'analysis', 3],
    ['Meissen snuff box', 'analysis', 1],
    ['Walnut writing desk', 'submitted', 2],
  ] as const)
    await database.db.execute(sql`
      insert into samples (item_name, submitter_name, status, submission_date, ${common})
      values (${item}, 'Élise Dürer', ${status}, ${day(d)}, 'ceramics-pottery', 'Mine.', ${client.email}, ${owner.id})`);
  // The estate: three commodes (one completed) among nine spoons, twelve samples in all.
  await database.db.execute(sql`
    insert into samples (item_name, submitter_name, status, ${common})
    select case when g <= 3 then 'Kingwood commode ' || g else 'Silver spoon ' || g end, 'Estate Office',
      case when g = 1 then 'completed' else 'submitted' end,
      'furniture-decorative', 'Estate.', ${estate.email}, ${estateAccount.id}
    from generate_series(1, 12) g`);
  await database.db.execute(sql`
    insert into samples (item_name, submitter_name, ${common})
    select 'Porcelain tureen ' || g, 'Tess Collector', 'ceramics-pottery', 'Mine.', ${collector.email}, ${collectorAccount.id}
    from generate_series(1, 10) g`);
  await database.close();
  product = await startProduct({}, { dataDir });
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await product?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const rowItems = (page: Page) => page.locator('tr[data-sample-id] a[href^="/sample/"]').allInnerTexts();

async function waitForItems(page: Page, expected: string[]) {
  await expect.poll(() => rowItems(page), { timeout: 30_000 }).toEqual(expected);
}

describe('finding a sample', () => {
  it('search without accents, filter, sort, export the view as CSV, open a result, Back to the same view; axe at 375 px', async () => {
    const { page, context } = await newPage(browser, { baseURL: product.url });
    await loginAs(page, product.url, E2E_ADMIN.email, E2E_ADMIN.password);
    await page.goto('/admin');
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    await page.waitForLoadState('networkidle');

    await page.getByLabel('Search', { exact: true }).fill('elise durer');
    await waitForItems(page, ['Walnut writing desk', 'Meissen snuff box', 'Meissen figurine']);
    // The box follows the URL, which the router updates in a transition: click, then wait for the tick
    // (Playwright's check() fails when the state has not changed the moment the click returns).
    const analysis = page.getByRole('checkbox', { name: 'Analysis' });
    await analysis.click();
    await expect.poll(() => analysis.isChecked(), { timeout: 30_000 }).toBe(true);
    await waitForItems(page, ['Meissen snuff box', 'Meissen figurine']);
    await page.getByLabel('Sort by').selectOption('-submitted');
    await waitForItems(page, ['Meissen figurine', 'Meissen snuff box']);
    await expect.poll(() => new URL(page.url()).searchParams.get('sort')).toBe('-submitted');
    const view = new URL(page.url());
    expect(view.searchParams.get('q')).toBe('elise durer');
    expect(view.searchParams.getAll('status')).toEqual(['analysis']);

    // Export CSV downloads this view: the same rows in the same order, the client's accents kept.
    const { fileName, rows: exported } = await downloadCsv(page, 'Export CSV');
    expect(fileName).toMatch(/^samples-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(exported.map((r) => [r.Item, r.Client, r.Status])).toEqual([
      ['Meissen figurine', 'Élise Dürer', 'analysis'],
      ['Meissen snuff box', 'Élise Dürer', 'analysis'],
    ]);
    const listed = await page
      .locator('tr[data-sample-id]')
      .evaluateAll((rows) => rows.map((row) => Number(row.getAttribute('data-sample-id'))));
    expect(exported.map((r) => r.ID)).toEqual(listed.map(displaySampleId));

    await page.getByRole('link', { name: 'Meissen figurine' }).click();
    await page.waitForURL(/\/sample\/\d+$/);
    await page.getByText('Meissen figurine').first().waitFor();
    await page.goBack();
    await page.waitForURL((url) => url.search === view.search);
    await waitForItems(page, ['Meissen figurine', 'Meissen snuff box']);
    await expect(page.getByLabel('Search', { exact: true }).inputValue()).resolves.toBe('elise durer');
    await expect(page.getByRole('checkbox', { name: 'Analysis' }).isChecked()).resolves.toBe(true);
    await expect(page.getByLabel('Sort by').inputValue()).resolves.toBe('-submitted');

    // The same view opened from a bookmark.
    await page.goto(`/admin${view.search}`);
    await waitForItems(page, ['Meissen figurine', 'Meissen snuff box']);
    // Custody: nothing of these has arrived yet, so 'In storage' selects none of them.
    await page.getByLabel('Custody').selectOption('in-storage');
    await expect.poll(() => new URL(page.url()).searchParams.getAll('custody')).toEqual(['in-storage']);
    await waitForItems(page, []);
    await page.getByLabel('Custody').selectOption('awaiting-arrival');
    await waitForItems(page, ['Meissen figurine', 'Meissen snuff box']);

    await page.setViewportSize({ width: 375, height: 800 });
    await page.waitForLoadState('networkidle');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, 'admin-search-375');
    await context.close();
  });

  it("the customer's dashboard: no search up to ten samples; past ten, a search box typed key by key and a status filter", async () => {
    const few = await newPage(browser, { baseURL: product.url });
    await loginAs(few.page, product.url, collector.email, collector.password);
    await few.page.goto('/dashboard');
    await few.page.getByText('Porcelain tureen 10').first().waitFor();
    expect(await few.page.getByLabel('Search', { exact: true }).count()).toBe(0);
    await few.context.close();

    const { page, context } = await newPage(browser, { baseURL: product.url });
    await loginAs(page, product.url, estate.email, estate.password);
    await page.goto('/dashboard');
    const box = page.getByLabel('Search', { exact: true });
    await box.waitFor();
    const items = () =>
      page
        .locator('tr[data-sample-id] p')
        .filter({ hasText: /commode|spoon/ })
        .allInnerTexts();
    await expect.poll(async () => (await items()).length, { timeout: 30_000 }).toBe(12);
    // Key by key, as a person types: every key is kept while the URL follows.
    await box.pressSequentially('kingwood comm');
    await expect.poll(() => box.inputValue()).toBe('kingwood comm');
    await expect
      .poll(async () => (await items()).sort())
      .toEqual(['Kingwood commode 1', 'Kingwood commode 2', 'Kingwood commode 3']);
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('kingwood comm');
    await page.getByLabel('Status', { exact: true }).selectOption('completed');
    await expect.poll(() => items()).toEqual(['Kingwood commode 1']);
    await box.fill('spoon');
    await expect.poll(() => page.getByText('No submissions match this search.').count()).toBe(1);
    await page.setViewportSize({ width: 375, height: 800 });
    await page.waitForLoadState('networkidle');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  });

  it('the staff dashboard counts every assigned sample on the server and pages the list', async () => {
    const { page, context } = await newPage(browser, { baseURL: product.url });
    await loginAs(page, product.url, analyst.email, analyst.password);
    await page.goto('/staff');
    await page.getByRole('heading', { name: 'Staff Dashboard' }).waitFor();
    const counter = (label: string) =>
      page.locator('.mantine-Card-root', { has: page.getByText(label, { exact: true }) }).first();
    await expect
      .poll(() => counter('Assigned Samples').innerText(), { timeout: 30_000 })
      .toContain(String(SEEDED_TOTAL));
    expect(await counter('Pending').innerText()).toContain(String(SEEDED.submitted));
    expect(await counter('In Progress').innerText()).toContain(
      String(SEEDED.analysis + SEEDED['in-progress']),
    );
    expect(await counter('Completed').innerText()).toContain(String(SEEDED.completed));
    expect(analystId).toBeGreaterThan(0);
    // The list pages: page 1 of all of them, and a search within the analyst's own samples.
    await page.getByText(`Page 1 of ${Math.ceil(SEEDED_TOTAL / 25)}`).waitFor();
    await page.getByLabel('Search', { exact: true }).fill('lot 259');
    await waitForItems(page, ['Lot 259']);
    await page.setViewportSize({ width: 375, height: 800 });
    await page.waitForLoadState('networkidle');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  });
});
