import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAs, newPage, seriousAxeViolations } from '../support/browser';
import { type E2E, startE2E, stopE2E, visible } from '../support/e2e';
import { fixturePath, submissionFields, submitSample } from '../support/factories';
import { loginToken, registerAccount } from '../support/http';

// Collections (docs/product/collections.md) as a customer uses them: a collection made from the
// dashboard, an item added to it at submission and another added from the collection page, the
// collection page listing them with their progress; axe at 1366 and 375 px.

let e2e: E2E;
const url = () => e2e.product.url;
const customer = {
  email: `estate-${Date.now()}@example.com`,
  password: 'estate-password-1',
  firstName: 'Edith',
  lastName: 'Crawley',
};
let collectionPath = '';

beforeAll(async () => {
  e2e = await startE2E({ RATE_LIMITS: 'off' });
  await registerAccount(e2e.product, customer);
}, 180_000);
afterAll(() => stopE2E(e2e));

async function expectNoSeriousAxeViolations(page: Page) {
  const violations = await seriousAxeViolations(page);
  expect(
    violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
  ).toEqual([]);
}

/** A sample of the customer's, submitted over HTTP in no collection; answers its id. */
async function insertSampleOverHttp(base: string, who: typeof customer, itemName: string): Promise<number> {
  const token = await loginToken({ url: base }, who.email, who.password);
  return submitSample({ url: base }, token, submissionFields({ itemName }));
}

const itemsSection = (page: Page) => page.locator('section[aria-labelledby="items-title"]');

describe('collections', () => {
  it('makes a collection from the dashboard, adds an item at submission and an existing one from its page', async () => {
    const loose = await insertSampleOverHttp(url(), customer, 'Loose silver teaspoon');
    const { page } = await newPage(e2e.browser, { baseURL: url(), width: 1366, height: 900 });
    await loginAs(page, url(), customer.email, customer.password);
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: 'Collections', exact: true }).waitFor();
    await page.waitForLoadState('networkidle');
    await page.getByRole('button', { name: 'New collection' }).click();
    const dialog = page.getByRole('dialog', { name: 'New collection' });
    await dialog.waitFor();
    // Nothing chosen: the form says what is missing, beside the fields.
    await dialog.getByRole('button', { name: 'Create collection' }).click();
    await dialog.getByText('Collection name is required').waitFor();
    await dialog.getByText('Please choose a purpose').waitFor();
    await dialog.getByLabel('Collection name').fill('Estate of Violet Crawley');
    await dialog.getByLabel('Purpose').selectOption('estate-planning');
    await dialog.getByRole('button', { name: 'Create collection' }).click();
    await page.getByRole('heading', { name: 'Estate of Violet Crawley', level: 1 }).waitFor();
    collectionPath = new URL(page.url()).pathname;
    expect(collectionPath).toMatch(/^\/collections\/\d+$/);
    await visible(page, /^No items yet\. Submit a new item/);

    // "Submit a new item" opens the submit form with this collection chosen.
    await page.getByRole('link', { name: 'Submit a new item' }).click();
    await page.getByRole('heading', { name: 'Submit Sample' }).waitFor();
    const chooser = page.locator('form [name="collectionId"]');
    await chooser.locator('option', { hasText: 'Estate of Violet Crawley' }).waitFor({ state: 'attached' });
    expect(await chooser.inputValue()).toBe(collectionPath.split('/').pop());
    await page.fill('form [name="submitterName"]', 'Edith Crawley');
    await page.fill('form [name="submitterEmail"]', customer.email);
    await page.fill('form [name="itemName"]', 'Regency card table');
    await page.selectOption('form [name="category"]', 'furniture-decorative');
    await page.fill('form [name="description"]', 'Mahogany fold-over card table, c. 1810.');
    await page.getByLabel('Expert Valuation').check();
    await page.setInputFiles('form input[name="photos"]', [fixturePath('photo.jpg')]);
    await page.getByRole('button', { name: 'Submit for Review' }).click();
    await page.waitForURL('**/dashboard');

    // The dashboard lists the collection with its progress; its page lists the item.
    const card = page.locator('[data-collection-id]', { hasText: 'Estate of Violet Crawley' });
    await card.getByText('0 of 1 reports issued').waitFor();
    await card.getByRole('link', { name: 'Estate of Violet Crawley' }).click();
    await itemsSection(page).getByText('Regency card table').waitFor();

    // Add an existing sample from the collection page.
    await page.waitForLoadState('networkidle');
    await page.getByRole('button', { name: 'Add existing samples' }).click();
    const add = page.getByRole('dialog', { name: 'Add existing samples' });
    await add.getByRole('checkbox', { name: new RegExp(`Loose silver teaspoon`) }).check();
    await add.getByRole('button', { name: 'Add to collection' }).click();
    await visible(page, 'Items added');
    await itemsSection(page).locator(`[data-sample-id="${loose}"]`).waitFor();
    await visible(page, /0 of 2 reports issued/);
    await expectNoSeriousAxeViolations(page);
  });

  it('imports a CSV with its photos: a bad row shown beside its field, fixed in the preview, then all rows imported', async () => {
    const { page } = await newPage(e2e.browser, { baseURL: url(), width: 1366, height: 900 });
    await loginAs(page, url(), customer.email, customer.password);
    await page.goto(collectionPath);
    await itemsSection(page).getByText('Regency card table').waitFor();
    await page.waitForLoadState('networkidle');
    const panel = page.locator('section[aria-labelledby="import-title"]');
    const template = await panel.getByRole('link', { name: 'Download template CSV' }).getAttribute('href');
    expect(decodeURIComponent(template ?? '')).toContain('submitterName,submitterEmail');

    const csv = [
      'submitterName,submitterEmail,itemName,category,description,expertValuation,photos',
      'Edith Crawley,edith@example.com,Bracket clock,furniture-decorative,"Ebonised bracket clock, c. 1780",true,clock.jpg',
      'Edith Crawley,not-an-address,Meissen group,ceramics-pottery,Porcelain figure group,true,meissen.png',
    ].join('\n');
    await panel
      .locator('input[type="file"]')
      .first()
      .setInputFiles({
        name: 'estate.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(csv),
      });
    await panel
      .locator('input[type="file"]')
      .nth(1)
      .setInputFiles([
        { name: 'clock.jpg', mimeType: 'image/jpeg', buffer: readFileSync(fixturePath('photo.jpg')) },
        { name: 'meissen.png', mimeType: 'image/png', buffer: readFileSync(fixturePath('photo.png')) },
      ]);
    await panel.getByRole('button', { name: 'Preview' }).click();
    await visible(page, '1 problem to fix');
    const bad = panel.locator('[data-import-row="3"]');
    await bad.getByText('Row 3: Meissen group').waitFor();
    const email = bad.getByLabel('submitterEmail (row 3)');
    // The problem sits beside its field, and the import waits until it is fixed.
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    await bad.getByText('Invalid email address').waitFor();
    expect(await panel.getByRole('button', { name: 'Import 2 items' }).isDisabled()).toBe(true);
    await expectNoSeriousAxeViolations(page);

    await email.fill('edith@example.com');
    await panel.getByRole('button', { name: 'Check again' }).click();
    await visible(page, '2 items ready to import');
    await panel.getByRole('button', { name: 'Import 2 items' }).click();
    await visible(page, 'Import complete');
    await itemsSection(page).getByText('Bracket clock').waitFor();
    await itemsSection(page).getByText('Meissen group').waitFor();
    await visible(page, /0 of 4 reports issued/);
    await expectNoSeriousAxeViolations(page);
  });

  it('shows the collection page as cards at 375 px, nothing off screen, and passes axe', async () => {
    const { page } = await newPage(e2e.browser, { baseURL: url(), width: 375, height: 800 });
    await loginAs(page, url(), customer.email, customer.password);
    await page.goto(collectionPath);
    await itemsSection(page).getByText('Regency card table').waitFor();
    await page.waitForLoadState('networkidle');
    await page
      .locator('section[aria-labelledby="import-title"]')
      .getByText('Download template CSV')
      .waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectNoSeriousAxeViolations(page);
    await page.goto('/dashboard');
    await page.getByRole('heading', { name: 'Collections', exact: true }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    await expectNoSeriousAxeViolations(page);
  });

  it('tells another customer the collection does not exist', async () => {
    const stranger = { ...customer, email: `stranger-${Date.now()}@example.com` };
    await registerAccount(e2e.product, stranger);
    const { page } = await newPage(e2e.browser, { baseURL: url(), width: 1366, height: 900 });
    await loginAs(page, url(), stranger.email, stranger.password);
    await page.goto(collectionPath);
    await page.getByRole('heading', { name: 'Collection Not Found' }).waitFor();
  });
});
