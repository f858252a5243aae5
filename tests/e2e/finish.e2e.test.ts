import { readFileSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, seriousAxeViolations } from '../support/browser';
import { E2E_ADMIN, type Product, startProduct } from '../support/product';

// Fit and finish (docs/decisions/0014-fit-and-finish.md): each numbered test keeps one finding fixed.

const fixturePath = (name: string) => new URL(`../fixtures/${name}`, import.meta.url).pathname;

let product: Product;
let browser: Browser;

const customer = {
  email: 'fia.finish@example.com',
  password: 'client-password-1',
  firstName: 'Fia',
  lastName: 'Finch',
};
const analyst = {
  email: 'ada.analyst@example.com',
  password: 'analyst-password-1',
  firstName: 'Ada',
  lastName: 'Lind',
};

async function api(path: string, init: RequestInit & { token?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.token) headers.set('authorization', `Bearer ${init.token}`);
  if (typeof init.body === 'string') headers.set('content-type', 'application/json');
  const res = await fetch(`${product.url}${path}`, { ...init, headers });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function tokenFor(email: string, password: string): Promise<string> {
  const res = await api('/login', { method: 'POST', body: JSON.stringify({ email, password }) });
  expect(res.status).toBe(200);
  return res.body.token;
}

async function submitSample(token: string, itemName: string): Promise<number> {
  const form = new FormData();
  const fields: Record<string, string> = {
    submitterName: 'Fia Finch',
    submitterEmail: customer.email,
    isPersonalSubmission: 'true',
    itemName,
    category: 'coins-currency',
    description: 'A silver dollar.',
    expertValuation: 'true',
    authenticityCheck: 'true',
    conditionAssessment: 'false',
    provenanceResearch: 'false',
    urgencyLevel: 'standard',
  };
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append(
    'photos',
    new Blob([readFileSync(fixturePath('photo.jpg'))], { type: 'image/jpeg' }),
    'coin.jpg',
  );
  const res = await api('/api/samples', { method: 'POST', body: form, token });
  expect(res.status).toBe(201);
  return res.body.id as number;
}

let adminToken = '';
let staffToken = '';
let customerToken = '';
/** Completed, with a report. */
let doneId = 0;
/** Assigned to the analyst, in review, no report yet. */
let openId = 0;
let reportCode = '';

beforeAll(async () => {
  [product, browser] = await Promise.all([startProduct(), launchBrowser()]);
  for (const u of [customer, analyst]) {
    const r = await api('/api/register', { method: 'POST', body: JSON.stringify(u) });
    expect(r.status).toBe(201);
  }
  adminToken = await tokenFor(E2E_ADMIN.email, E2E_ADMIN.password);
  const users = await api('/api/admin/users?search=ada.analyst', { token: adminToken });
  const analystId = (users.body as { id: number; email: string }[]).find(
    (u) => u.email === analyst.email,
  )?.id;
  expect(analystId).toBeTruthy();
  expect(
    (
      await api(`/api/admin/users/${analystId}/role`, {
        method: 'POST',
        body: JSON.stringify({ role: 'staff' }),
        token: adminToken,
      })
    ).status,
  ).toBe(200);
  staffToken = await tokenFor(analyst.email, analyst.password);
  customerToken = await tokenFor(customer.email, customer.password);
  doneId = await submitSample(customerToken, 'Morgan Silver Dollar 1921');
  openId = await submitSample(customerToken, 'Peace Dollar 1923');
  for (const id of [doneId, openId]) {
    const r = await api(`/api/admin/samples/${id}/assign`, {
      method: 'POST',
      body: JSON.stringify({ staffId: analystId }),
      token: adminToken,
    });
    expect(r.status).toBe(200);
  }
  const issued = await api(`/api/staff/samples/${doneId}/report`, {
    method: 'POST',
    token: staffToken,
    body: JSON.stringify({
      elements: [
        { element: 'Silver', percentage: 90, purity: '900', quality: 'Excellent', notes: null },
        { element: 'Copper', percentage: 10, purity: null, quality: 'Good', notes: null },
      ],
    }),
  });
  expect(issued.status).toBe(200);
  reportCode = issued.body.reportCode;
  await api(`/api/staff/samples/${doneId}/status`, {
    method: 'POST',
    token: staffToken,
    body: JSON.stringify({ status: 'completed' }),
  });
  await api(`/api/staff/samples/${openId}/status`, {
    method: 'POST',
    token: staffToken,
    body: JSON.stringify({ status: 'review' }),
  });
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

async function session(token: string | null, width = 1366, height = 900) {
  const { page, context } = await newPage(browser, { baseURL: product.url, width, height });
  if (token) {
    await page.goto('/about');
    await page.evaluate((t) => localStorage.setItem('token', t), token);
  }
  return { page, context };
}

/** The element lies inside the viewport horizontally (nothing to scroll sideways for). */
async function expectWithinWidth(page: Page, locator: Locator) {
  await locator.scrollIntoViewIfNeeded();
  const box = await locator.boundingBox();
  expect(box).not.toBeNull();
  const width = page.viewportSize()?.width ?? 0;
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(width);
}

async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

describe('fit and finish', () => {
  it('1. every route change opens at the top; Back returns to where the reader was', async () => {
    const { page, context } = await session(null);
    await page.goto('/about');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.evaluate(() => window.scrollTo(0, 1500));
    await page.waitForFunction(() => window.scrollY > 1000);
    const before = await page.evaluate(() => window.scrollY);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Services', exact: true })
      .click();
    await page.waitForURL('**/services');
    // The URL changes before the lazily loaded page replaces the old one: wait for the new page.
    await page.getByRole('heading', { level: 1, name: 'Everything your antiques need' }).waitFor();
    await page.waitForFunction(() => window.scrollY === 0, null, { timeout: 5000 });
    // The footer's Contact link, from the very bottom of a page.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.locator('footer').getByRole('link', { name: 'Contact', exact: true }).click();
    await page.waitForURL('**/contact');
    await page.getByRole('heading', { name: 'Contact Us' }).waitFor();
    await expect(page.evaluate(() => window.scrollY)).resolves.toBe(0);
    await page.goBack();
    await page.goBack();
    await page.waitForURL('**/about');
    await page.waitForFunction((y) => Math.abs(window.scrollY - y) < 5, before, { timeout: 5000 });
    await context.close();
  });

  it('2. signing in returns to the page that asked for it, and only to a path of this site', async () => {
    const { page, context } = await session(null);
    await page.goto(`/sample/${doneId}`);
    await page.waitForURL('**/login');
    await page.getByLabel('Email').fill(customer.email);
    await page.getByLabel(/^Password/).fill(customer.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL(`**/sample/${doneId}`);
    await page.getByRole('heading', { name: 'Morgan Silver Dollar 1921' }).waitFor();
    await context.close();

    // Without a page to return to, the role's home as before.
    const plain = await session(null);
    await plain.page.goto('/login');
    await plain.page.getByLabel('Email').fill(customer.email);
    await plain.page.getByLabel(/^Password/).fill(customer.password);
    await plain.page.getByRole('button', { name: 'Login' }).click();
    await plain.page.waitForURL((u) => u.pathname === '/');
    await plain.context.close();
  });

  it('3. at 375 px the tables become cards with every action visible', async () => {
    // Customer dashboard: status, services, View and PDF.
    const c = await session(customerToken, 375, 800);
    await c.page.goto('/dashboard');
    const card = c.page.locator(`tr[data-sample-id="${doneId}"]`);
    await card.getByRole('button', { name: /PDF report for/ }).waitFor();
    await expectWithinWidth(c.page, card.getByText('Completed', { exact: true }));
    await expectWithinWidth(c.page, card.getByText('Valuation, Authenticity'));
    await expectWithinWidth(c.page, card.getByRole('link', { name: /^View / }));
    await expectWithinWidth(c.page, card.getByRole('button', { name: /PDF report for/ }));
    await expectNoSidewaysScroll(c.page);
    expect(await seriousAxeViolations(c.page)).toEqual([]);
    await c.context.close();

    // Staff table: status dropdown, Generate Report, PDF.
    const s = await session(staffToken, 375, 800);
    await s.page.goto('/staff');
    const open = s.page.locator(`tr[data-sample-id="${openId}"]`);
    await expectWithinWidth(s.page, open.getByLabel(/^Status of/));
    await expectWithinWidth(s.page, open.getByRole('button', { name: /Generate Report/ }));
    await expectWithinWidth(
      s.page,
      s.page.locator(`tr[data-sample-id="${doneId}"]`).getByRole('button', { name: /^PDF of/ }),
    );
    await expectNoSidewaysScroll(s.page);
    expect(await seriousAxeViolations(s.page)).toEqual([]);
    await s.context.close();

    // Admin samples table: assign control and button.
    const a = await session(adminToken, 375, 800);
    await a.page.goto('/admin');
    const adminRow = a.page.locator(`tr[data-sample-id="${openId}"]`);
    await expectWithinWidth(a.page, adminRow.getByRole('button', { name: /^Assign/ }));
    await expectWithinWidth(a.page, adminRow.getByRole('cell', { name: /Ada Lind/ }));
    await expectNoSidewaysScroll(a.page);
    expect(await seriousAxeViolations(a.page)).toEqual([]);
    await a.context.close();

    // The verify page's Analysis Results: the Quality column.
    const v = await session(null, 375, 800);
    await v.page.goto(`/verify-report?code=${reportCode}`);
    await v.page.getByRole('heading', { name: 'Authentic Report Verified' }).waitFor();
    await expectWithinWidth(v.page, v.page.getByText('Excellent', { exact: true }));
    await expectWithinWidth(v.page, v.page.getByText('Good', { exact: true }));
    await expectNoSidewaysScroll(v.page);
    expect(await seriousAxeViolations(v.page)).toEqual([]);
    await v.context.close();
  });

  it('4. staff and admin rows open the sample page', async () => {
    const s = await session(staffToken);
    await s.page.goto('/staff');
    await s.page
      .locator(`tr[data-sample-id="${openId}"]`)
      .getByRole('link', { name: 'Peace Dollar 1923' })
      .click();
    await s.page.waitForURL(`**/sample/${openId}`);
    await s.page.getByRole('heading', { name: 'Peace Dollar 1923' }).waitFor();
    await s.context.close();

    const a = await session(adminToken);
    await a.page.goto('/admin');
    await a.page
      .locator(`tr[data-sample-id="${doneId}"]`)
      .getByRole('link', { name: 'Morgan Silver Dollar 1921' })
      .click();
    await a.page.waitForURL(`**/sample/${doneId}`);
    await a.page.getByRole('heading', { name: 'Morgan Silver Dollar 1921' }).waitFor();
    await a.context.close();
  });
});
