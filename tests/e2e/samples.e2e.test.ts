import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAs, newPage, seriousAxeViolations } from '../support/browser';
import { startE2E, stopE2E, visible } from '../support/e2e';
import { registerAccount } from '../support/http';
import type { Product } from '../support/product';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');

let product: Product;
let browser: Browser;

async function register(email: string, firstName: string) {
  const account = { email, password: 'customer-pass-1' };
  await registerAccount(product, { ...account, firstName, lastName: 'Collector' });
  return account;
}

beforeAll(async () => {
  // A report opens in its own tab here: the full browser, which has a PDF viewer.
  ({ product, browser } = await startE2E({}, { browser: 'full' }));
});
afterAll(() => stopE2E({ product, browser }));

describe('a customer submits a sample and follows it', () => {
  let sampleUrl = '';

  it('submits with a photo, sees it on the dashboard as Submitted, and the detail page shows everything entered', async () => {
    const ada = await register('ada@collector.test', 'Ada');
    const { page, context } = await newPage(browser, { baseURL: product.url });
    await loginAs(page, product.url, ada.email, ada.password);

    await page.goto('/dashboard');
    await visible(page, 'No submissions yet');

    await page.goto('/submit-sample');
    await page.getByRole('heading', { name: 'Submit Sample' }).waitFor();
    // Without a photo and a service the documented messages appear and nothing is sent.
    await page.fill('form [name="itemName"]', 'Georgian Silver Teapot');
    await page.getByRole('button', { name: 'Submit for Review' }).click();
    await visible(page, 'At least one photo is required.');

    await page.fill('form [name="submitterName"]', 'Ada Collector');
    await page.fill('form [name="submitterEmail"]', 'ada@collector.test');
    await page.fill('form [name="submitterPhone"]', '+44 20 7946 0000');
    await page.selectOption('form [name="submitterCountry"]', 'united-kingdom');
    await page.getByLabel('This is a personal submission').uncheck();
    await page.fill('form [name="representativeName"]', 'Rita Representative');
    await page.fill('form [name="representativeEmail"]', 'rita@agents.test');
    await page.selectOption('form [name="relationshipToOwner"]', 'estate-manager');
    await page.selectOption('form [name="category"]', 'furniture-decorative');
    await page.fill('form [name="estimatedAge"]', 'c. 1790');
    await page.fill('form [name="description"]', 'Sterling silver teapot with a fruitwood handle.');
    await page.fill('form [name="dimensions"]', '20 x 12 x 15 cm');
    await page.fill('form [name="weight"]', '650 g');
    await page.fill('form [name="materials"]', 'Silver, fruitwood');
    await page.setInputFiles('form input[name="photos"]', join(FIXTURES, 'photo.jpg'));
    await page.setInputFiles('form input[name="documents"]', join(FIXTURES, 'document.pdf'));
    await page.getByRole('img', { name: 'photo.jpg' }).waitFor();
    await page.selectOption('form [name="purposeOfValuation"]', 'insurance');
    await page.selectOption('form [name="urgencyLevel"]', 'urgent');
    await page.selectOption('form [name="estimatedValueRange"]', '1000-5000');
    // The owner's value for insurance in transit and custody (docs/product/custody.md).
    await page.fill('form [name="declaredValue"]', '2500');
    await page.fill('form [name="declaredCurrency"]', 'gbp');
    await page.fill('form [name="specialInstructions"]', 'Handle with gloves.');

    await page.getByRole('button', { name: 'Submit for Review' }).click();
    await visible(page, 'At least one service must be selected.');
    await page.getByLabel('Expert Valuation').check();
    await page.getByLabel('Provenance Research').check();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Submit for Review' }).click();

    await page.waitForURL('**/dashboard');
    await visible(page, 'Sample Submitted Successfully!');
    await visible(page, /"Georgian Silver Teapot" was submitted for review with ID VAL-\d{4}\./);
    const row = page.getByRole('row', { name: /Georgian Silver Teapot/ });
    await row.waitFor();
    expect(await row.getByText('Submitted', { exact: true }).isVisible()).toBe(true);
    expect(await row.getByText('Valuation, Provenance').isVisible()).toBe(true);
    expect(await row.getByRole('button', { name: /PDF/ }).count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await row.getByRole('link', { name: /View/ }).click();
    await page.waitForURL(/\/sample\/\d+$/);
    sampleUrl = new URL(page.url()).pathname;
    await page.getByRole('heading', { level: 1, name: 'Georgian Silver Teapot' }).waitFor();
    for (const text of [
      /^VAL-\d{4}$/,
      'Furniture & Decorative Arts',
      'Valuation, Provenance',
      'Unassigned',
      'Representative',
      'Rita Representative',
      'rita@agents.test',
      '+44 20 7946 0000',
      'United Kingdom',
      'Estate Manager',
      'Ada Collector',
      'Sterling silver teapot with a fruitwood handle.',
      'c. 1790',
      '20 x 12 x 15 cm',
      '650 g',
      'Silver, fruitwood',
      'Handle with gloves.',
      'Insurance',
      'Urgent',
      '$1,000 - $5,000',
      'photo.jpg',
      'document.pdf',
      'Sample submitted',
      'Declared value: £2,500.00',
      'Awaiting arrival',
    ]) {
      await visible(page, text);
    }
    await page.getByRole('img', { name: 'Photo' }).first().waitFor();
    expect(
      await page
        .getByRole('button', { name: 'Back to Dashboard' })
        .or(page.getByRole('link', { name: 'Back to Dashboard' }))
        .count(),
    ).toBeGreaterThan(0);
    expect(await seriousAxeViolations(page)).toEqual([]);

    // View opens a new tab at once and shows the file in it, from a blob, once it has arrived.
    const [popup] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('button', { name: 'View document.pdf' }).click(),
    ]);
    await popup.waitForURL(/^blob:/, { timeout: 10_000 });
    expect(popup.url()).toMatch(/^blob:/);
    // A photo opens in the gallery's viewer instead: its display copy, never the original
    // (docs/product/photos.md).
    await page.getByRole('button', { name: 'View photo.jpg' }).click();
    await page.getByRole('dialog', { name: 'Photo 1 of 1' }).waitFor();
    await page.keyboard.press('Escape');
    await context.close();
  });

  it('saves a draft, restores it after a reload, and discards it', async () => {
    const bea = await register('bea@collector.test', 'Bea');
    const { page, context } = await newPage(browser, { baseURL: product.url, width: 375, height: 800 });
    await loginAs(page, product.url, bea.email, bea.password);
    await page.goto('/submit-sample');
    await page.fill('form [name="itemName"]', 'Draft Pocket Watch');
    await page.fill('form [name="description"]', 'Gold open-face watch');
    await page.getByLabel('Authenticity Check').check();
    await page.setInputFiles('form input[name="photos"]', join(FIXTURES, 'photo.png'));
    await page.getByRole('button', { name: 'Save as Draft' }).click();
    await visible(page, 'Draft Saved');

    await page.reload();
    await page.getByRole('heading', { name: 'Submit Sample' }).waitFor();
    await visible(page, 'Draft restored');
    expect(await page.inputValue('form [name="itemName"]')).toBe('Draft Pocket Watch');
    expect(await page.inputValue('form [name="description"]')).toBe('Gold open-face watch');
    expect(await page.getByLabel('Authenticity Check').isChecked()).toBe(true);
    await visible(page, /photo\.png/);

    await page.getByRole('button', { name: 'Discard Draft' }).click();
    expect(await page.inputValue('form [name="itemName"]')).toBe('');
    await page.reload();
    await page.getByRole('heading', { name: 'Submit Sample' }).waitFor();
    expect(await page.getByText('Draft restored').count()).toBe(0);
    expect(await page.inputValue('form [name="itemName"]')).toBe('');

    // A draft saved, then Log out: nothing of it stays in this browser, and signing in again finds none.
    await page.fill('form [name="itemName"]', 'Private Heirloom');
    await page.getByRole('button', { name: 'Save as Draft' }).click();
    await visible(page, 'Draft Saved');
    expect(await page.evaluate(() => JSON.stringify(localStorage))).toContain('Private Heirloom');
    // At 375 px the Logout button is in the menu.
    await page.getByRole('button', { name: 'Toggle navigation menu' }).click();
    await page.getByRole('button', { name: 'Logout' }).last().click();
    await page.waitForURL((url) => url.pathname === '/');
    expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain('Private Heirloom');
    await loginAs(page, product.url, bea.email, bea.password);
    await page.goto('/submit-sample');
    await page.getByRole('heading', { name: 'Submit Sample' }).waitFor();
    expect(await page.getByText('Draft restored').count()).toBe(0);
    expect(await page.inputValue('form [name="itemName"]')).toBe('');
    await context.close();
  });

  it("shows 'Sample Not Found' to a second customer, and on a missing sample", async () => {
    expect(sampleUrl).toMatch(/^\/sample\/\d+$/);
    const cy = await register('cy@collector.test', 'Cy');
    const { page, context } = await newPage(browser, { baseURL: product.url });
    await loginAs(page, product.url, cy.email, cy.password);
    await page.goto(sampleUrl);
    await page.getByRole('heading', { name: 'Sample Not Found' }).waitFor();
    expect(await page.getByText('Georgian Silver Teapot').count()).toBe(0);
    await page.goto('/sample/999999');
    await page.getByRole('heading', { name: 'Sample Not Found' }).waitFor();
    await page.goto('/');
    await visible(page, 'Welcome back, Cy!');
    await visible(page, 'No submissions yet');
    await context.close();
  });

  it('sends a visitor from /submit-sample to /login with the Unauthorized message', async () => {
    const { page, context } = await newPage(browser, { baseURL: product.url });
    await page.goto('/submit-sample');
    await visible(page, 'You are not authorized to access this page. Redirecting to login...');
    await page.waitForURL('**/login');
    await context.close();
  });
});
