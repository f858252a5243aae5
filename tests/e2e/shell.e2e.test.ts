import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPage } from '../support/browser';
import { startE2E, stopE2E } from '../support/e2e';
import type { Product } from '../support/product';

let product: Product;
let browser: Browser;
beforeAll(async () => {
  ({ product, browser } = await startE2E());
});
afterAll(() => stopE2E({ product, browser }));

describe('the web shell', () => {
  it('opens /, shows the navigation bar, follows a link, and shows the 404 page', async () => {
    const { page, context } = await newPage(browser, { baseURL: product.url });
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const label of ['Home', 'About', 'Services', 'Verify Report', 'Contact']) {
      await expect(nav.getByRole('link', { name: label, exact: true }).isVisible()).resolves.toBe(true);
    }
    await expect(page.getByRole('link', { name: 'Login' }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('link', { name: 'Sign Up' }).isVisible()).resolves.toBe(true);
    await nav.getByRole('link', { name: 'About', exact: true }).click();
    await page.waitForURL('**/about');
    await page.goto('/no-such-page');
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    await expect(page.getByText('Did you forget to add the page to the router?').isVisible()).resolves.toBe(
      true,
    );
    await context.close();
  });

  it('shows the mobile menu toggle at 375 px and opens it', async () => {
    const { page, context } = await newPage(browser, { baseURL: product.url, width: 375, height: 800 });
    await page.goto('/');
    await page.getByRole('button', { name: 'Toggle navigation menu' }).click();
    const mobile = page.getByRole('navigation', { name: 'Mobile' });
    await mobile.getByRole('link', { name: 'Services', exact: true }).click();
    await page.waitForURL('**/services');
    await context.close();
  });

  it('serves hashed assets precompressed and cached for good, and the app page uncached', async () => {
    const html = await (await fetch(`${product.url}/`)).text();
    const script = /\/assets\/index-[^"]+\.js/.exec(html)?.[0];
    expect(script).toBeTruthy();
    const asset = await fetch(`${product.url}${script}`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-encoding')).toBe('br');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    const page = await fetch(`${product.url}/dashboard`);
    expect(page.headers.get('cache-control')).toBe('no-cache');
  });

  it('printed nothing about a generated admin, because ADMIN_EMAIL was set', () => {
    expect(product.output()).not.toContain('Password:');
  });
});
