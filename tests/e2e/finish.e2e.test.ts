import { readFileSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, seriousAxeViolations, sessionPage } from '../support/browser';
import { selectTab } from '../support/e2e';
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
/** Assigned to the analyst, in analysis: its status is changed in test 7. */
let holdId = 0;
let reportCode = '';

beforeAll(async () => {
  [product, browser] = await Promise.all([startProduct({ RATE_LIMITS: 'off' }), launchBrowser('shell')]);
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
  holdId = await submitSample(customerToken, 'Trade Dollar 1875');
  for (const id of [doneId, openId, holdId]) {
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
  await api(`/api/staff/samples/${holdId}/status`, {
    method: 'POST',
    token: staffToken,
    body: JSON.stringify({ status: 'analysis' }),
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

const session = (token: string | null, width = 1366, height = 900) =>
  sessionPage(browser, { baseURL: product.url, token, width, height });

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
    await page.waitForFunction(() => window.scrollY === 0, undefined, { timeout: 5000 });
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
    // The Assigned Staff cell (the assign control's cell, later in the row, names her too now).
    await expectWithinWidth(a.page, adminRow.getByRole('cell', { name: /Ada Lind/ }).first());
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

  it('3b. status, quote and "Late" badges show their whole label in every list at 1280 px', async () => {
    for (const [token, open] of [
      [customerToken, (page: Page) => page.goto('/dashboard')],
      [staffToken, (page: Page) => page.goto('/staff')],
      [
        adminToken,
        async (page: Page) => {
          await page.goto('/admin');
          await selectTab(page, 'Samples');
        },
      ],
    ] as const) {
      const { page, context } = await session(token, 1280, 900);
      await open(page);
      await page.locator('table [data-status]').first().waitFor();
      const clipped = await page.evaluate(() =>
        [...document.querySelectorAll('table .mantine-Badge-label')]
          .filter((el) => el.scrollWidth > el.clientWidth + 1)
          .map((el) => el.textContent),
      );
      expect(clipped).toEqual([]);
      await context.close();
    }
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

  it('7. a status change asks first, carries an optional note the client reads, and an admin cannot demote themself', async () => {
    const s = await session(staffToken);
    await s.page.goto('/staff');
    const r = s.page.locator(`tr[data-sample-id="${holdId}"]`);
    const select = r.getByLabel(/^Status of/);
    // A stray choice (or arrow key) only opens the question; Cancel leaves everything as it was.
    await select.focus();
    await select.selectOption('review');
    const dialog = s.page.getByRole('dialog', { name: 'Change status?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect(select.inputValue()).resolves.toBe('analysis');
    const unchanged = await api(`/api/samples/${holdId}`, { token: customerToken });
    expect(unchanged.body.status).toBe('analysis');

    await select.selectOption('on-hold');
    await dialog.waitFor();
    await dialog.getByText('Strongly suggested for On Hold', { exact: false }).waitFor();
    expect(await seriousAxeViolations(s.page)).toEqual([]);
    await dialog
      .getByLabel('Note for the client (optional)')
      .fill('Waiting for your photo of the reverse side.');
    await dialog.getByRole('button', { name: 'Save status' }).click();
    await s.page.getByText('Sample status updated', { exact: true }).first().waitFor();
    await r.locator('[data-status="on-hold"]').waitFor();
    await s.context.close();

    const c = await session(customerToken);
    await c.page.goto(`/sample/${holdId}`);
    const history = c.page.getByRole('region', { name: 'Status History' });
    await history.getByText('Waiting for your photo of the reverse side.').waitFor();
    await c.context.close();

    const a = await session(adminToken);
    await a.page.goto('/admin');
    await selectTab(a.page, 'Staff');
    const own = a.page.locator('select[name="role"]:disabled');
    await own.waitFor();
    await expect(own.inputValue()).resolves.toBe('admin');
    await a.page.getByText('Your own role (another admin can change it)').waitFor();
    await expect(a.page.getByLabel('Role of Ada Lind').isEnabled()).resolves.toBe(true);
    await a.context.close();
  });

  it('5. the sample page offers the PDF and Verify whenever a report exists; staff can complete the sample as they issue', async () => {
    const c = await session(customerToken);
    await c.page.goto(`/sample/${doneId}`);
    const card = c.page.getByRole('region', { name: 'Valuation Report' });
    await card.getByText(reportCode).waitFor();
    const [download] = await Promise.all([
      c.page.waitForEvent('download'),
      card.getByRole('button', { name: 'Download PDF' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`Report-${reportCode}.pdf`);
    const verify = card.getByRole('link', { name: 'Verify' });
    await expect(verify.getAttribute('href')).resolves.toBe(`/verify-report?code=${reportCode}`);
    await verify.click();
    await c.page.getByRole('heading', { name: 'Authentic Report Verified' }).waitFor();
    await c.context.close();

    // Staff issue a report for the sample in Review and complete it in the same step.
    const s = await session(staffToken);
    await s.page.goto('/staff');
    await s.page
      .locator(`tr[data-sample-id="${openId}"]`)
      .getByRole('button', { name: /Generate Report/ })
      .click();
    const dialog = s.page.getByRole('dialog', { name: 'Generate Analysis Report' });
    await dialog.getByText('Peace Dollar 1923').first().waitFor();
    await dialog.getByLabel('Element Name').fill('Silver');
    await dialog.getByLabel('Percentage').fill('90');
    await dialog.getByRole('button', { name: 'Add Element' }).click();
    await dialog.getByRole('cell', { name: 'Silver', exact: true }).waitFor();
    await dialog.getByLabel('Also mark the sample Completed').check();
    await Promise.all([
      s.page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Generate PDF Report' }).click(),
    ]);
    await dialog.waitFor({ state: 'hidden' });
    await s.page.locator(`tr[data-sample-id="${openId}"] [data-status="completed"]`).waitFor();
    const after = await api(`/api/samples/${openId}`, { token: customerToken });
    expect(after.body.status).toBe('completed');
    expect(after.body.reportCode).toMatch(/^[A-Z2-9]{8}$/);
    await s.context.close();
  });

  it('10. data screens show placeholders while loading and a Retry after an error, never zeros', async () => {
    const c = await session(customerToken, 375, 800);
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    let fail = true;
    await c.page.route('**/api/samples', async (route) => {
      await held;
      if (fail)
        await route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: '{"message":"Database unavailable"}',
        });
      else await route.continue();
    });
    await c.page.goto('/dashboard');
    await c.page.getByRole('heading', { name: 'My Dashboard' }).waitFor();
    await c.page.locator('[data-loading="true"]').first().waitFor();
    await expect(
      c.page.getByText('Your submissions will appear here', { exact: false }).count(),
    ).resolves.toBe(0);
    await expect(c.page.getByText('No submissions yet').count()).resolves.toBe(0);
    await expect(c.page.getByText('0', { exact: true }).count()).resolves.toBe(0);
    release();
    await c.page.getByText('Error fetching submissions:', { exact: false }).waitFor({ timeout: 20_000 });
    await expect(c.page.getByText('0', { exact: true }).count()).resolves.toBe(0);
    expect(await seriousAxeViolations(c.page)).toEqual([]);
    fail = false;
    await c.page.getByRole('button', { name: 'Retry' }).click();
    await c.page.locator(`tr[data-sample-id="${doneId}"]`).waitFor();
    await c.context.close();

    // Staff dashboard and the admin Samples tab: the same error, Retry recovers.
    for (const [token, path, api_, rowId] of [
      [staffToken, '/staff', '**/api/staff/samples?*', openId],
      [adminToken, '/admin', '**/api/admin/samples?*', openId],
    ] as const) {
      const p = await session(token);
      let broken = true;
      await p.page.route(api_, (route) =>
        broken
          ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"down"}' })
          : route.continue(),
      );
      await p.page.goto(path);
      await p.page.getByRole('button', { name: 'Retry' }).first().waitFor({ timeout: 20_000 });
      broken = false;
      await p.page.getByRole('button', { name: 'Retry' }).first().click();
      await p.page.locator(`tr[data-sample-id="${rowId}"]`).waitFor();
      await p.context.close();
    }
  });

  it('13. admin: the charts keep their place while loading, settings pre-filled from the site, website completed, full inquiry message, searchable paged Staff tab, whole-number chart, a warning before re-issuing an unchanged report', async () => {
    const message =
      'Dear lab, I inherited a large collection of coins and medals. ' +
      'Could you tell me how the valuation works for more than two hundred pieces? '.repeat(2) +
      'FULL-MESSAGE-END';
    expect(
      (
        await api('/api/contact', {
          method: 'POST',
          body: JSON.stringify({
            firstName: 'Ines',
            lastName: 'Inquirer',
            email: 'ines@example.com',
            subject: 'valuation-quote',
            message,
          }),
        })
      ).status,
    ).toBe(201);
    // 20 more accounts, so the Staff tab has pages.
    for (let i = 0; i < 20; i += 1) {
      const r = await api('/api/register', {
        method: 'POST',
        body: JSON.stringify({
          email: `bulk${i}@example.com`,
          password: 'bulk-password-1',
          firstName: 'Bulk',
          lastName: `Person ${i}`,
        }),
      });
      expect(r.status).toBe(201);
    }

    const a = await session(adminToken);
    // The charts' figures are held back until the tabs have been seen: when they and the charts' code
    // arrive, the tabs below must not move (their place is kept while they load).
    let releaseFigures = () => {};
    const figuresHeld = new Promise<void>((resolve) => {
      releaseFigures = resolve;
    });
    await a.page.route('**/api/admin/analytics', async (route) => {
      await figuresHeld;
      await route.continue();
    });
    await a.page.goto('/admin');
    const tabs = a.page.getByRole('tablist');
    await tabs.waitFor();
    await a.page.getByRole('status', { name: 'Loading charts' }).waitFor();
    const tabsBefore = await tabs.boundingBox();
    releaseFigures();
    await a.page.getByRole('heading', { name: 'Submissions per week' }).waitFor();
    await a.page.locator('figure svg').first().waitFor();
    const tabsAfter = await tabs.boundingBox();
    expect(tabsBefore).not.toBeNull();
    expect(
      Math.abs((tabsAfter?.y ?? 0) - (tabsBefore?.y ?? 0)),
      'the tabs moved when the charts appeared',
    ).toBeLessThan(2);
    await a.page.unroute('**/api/admin/analytics');
    const chart = a.page.locator('figure', {
      has: a.page.getByRole('heading', { name: 'Submissions per week' }),
    });
    await chart.locator('svg text').first().waitFor();
    // The y axis' labels are the numeric ones (the x axis names weeks).
    const tickTexts = (await chart.locator('svg text').allTextContents()).filter((t) =>
      /^[\d.]+$/.test(t.trim()),
    );
    expect(tickTexts.length).toBeGreaterThan(1);
    for (const t of tickTexts) expect(t).toMatch(/^\d+$/);

    await selectTab(a.page, 'Settings');
    await expect(a.page.getByLabel('Lab Name').inputValue()).resolves.toBe('Heritage Valuation Laboratory');
    await expect(a.page.getByLabel('Phone').inputValue()).resolves.toBe('+1 (617) 555-0142');
    await expect(a.page.getByLabel('Address').inputValue()).resolves.toContain('Antiquarian Row');
    await a.page.getByLabel('Website').fill('heritagevaluationlab.com');
    await a.page.getByRole('button', { name: 'Save Settings' }).click();
    await a.page.getByText('Lab settings updated', { exact: true }).first().waitFor();
    const saved = await api('/api/lab/settings', { token: adminToken });
    expect(saved.body.website).toBe('https://heritagevaluationlab.com');
    await expect(a.page.getByLabel('Website').inputValue()).resolves.toBe('https://heritagevaluationlab.com');

    await selectTab(a.page, 'Inquiries');
    await a.page
      .getByRole('button', { name: /Read message/ })
      .first()
      .click();
    const read = a.page.getByRole('dialog', { name: 'Message from Ines Inquirer' });
    await read.getByText('FULL-MESSAGE-END', { exact: false }).waitFor();
    await a.page.keyboard.press('Escape');

    await selectTab(a.page, 'Staff');
    await a.page
      .getByRole('navigation', { name: 'Accounts pages' })
      .getByText(/Page 1 of 2/)
      .waitFor();
    await expect(a.page.locator('tr[data-user-id]').count()).resolves.toBe(20);
    await a.page.getByRole('button', { name: 'Next' }).click();
    await a.page.getByText('Page 2 of 2').waitFor();
    await a.page.getByLabel('Search accounts').fill('person 17');
    await a.page.getByRole('cell', { name: 'bulk17@example.com' }).waitFor();
    await expect(a.page.locator('tr[data-user-id]').count()).resolves.toBe(1);
    await a.page.getByLabel('Search accounts').fill('');
    await a.page.getByLabel('Role', { exact: true }).selectOption('staff');
    await a.page.getByRole('cell', { name: analyst.email }).waitFor();
    await expect(a.page.locator('tr[data-user-id]').count()).resolves.toBe(1);
    expect(await seriousAxeViolations(a.page)).toEqual([]);

    // Re-issuing a report whose elements did not change: a warning first, nothing issued.
    const before = await api(`/api/samples/${doneId}`, { token: adminToken });
    await a.page.goto(`/sample/${doneId}`);
    await a.page.getByRole('cell', { name: 'Copper', exact: true }).waitFor();
    await a.page.getByRole('button', { name: 'Generate PDF Report' }).click();
    await a.page.getByText('Nothing has changed').waitFor();
    await a.page.getByRole('button', { name: 'Keep the current report' }).click();
    await expect(a.page.getByText('Nothing has changed').count()).resolves.toBe(0);
    const after = await api(`/api/samples/${doneId}`, { token: adminToken });
    expect(after.body.reportGeneratedAt).toBe(before.body.reportGeneratedAt);
    await a.context.close();
  });

  it('15. small things: the verify box trims as you type, one not-found text per place, contact pre-filled and the consultation subject chosen', async () => {
    const v = await session(null);
    await v.page.goto('/verify-report');
    const box = v.page.getByLabel('Verification Code');
    await box.fill(`   ${reportCode.toLowerCase()} `);
    await expect(box.inputValue()).resolves.toBe(reportCode);
    await box.fill('ZZZZ ZZZZ');
    await expect(box.inputValue()).resolves.toBe('ZZZZZZZZ');
    await v.page.getByRole('button', { name: 'Verify Report' }).click();
    const advice = 'Report not found. Please check your verification code and try again.';
    await v.page.getByText(advice).waitFor();
    await v.page.getByText('Report not found or invalid code').first().waitFor();
    await expect(v.page.getByText(advice).count()).resolves.toBe(1);
    await expect(v.page.getByText('Report not found or invalid code').count()).resolves.toBe(1);
    await expect(seriousAxeViolations(v.page)).resolves.toEqual([]);
    await v.context.close();

    const c = await session(customerToken);
    await c.page.goto('/dashboard');
    await c.page.getByRole('link', { name: 'Schedule Consultation' }).click();
    await c.page.waitForURL('**/contact?subject=consultation-request');
    const filledIn = async () => {
      await expect.poll(() => c.page.getByLabel(/^First Name/).inputValue()).toBe(customer.firstName);
      await expect(c.page.getByLabel(/^Subject/).inputValue()).resolves.toBe('consultation-request');
      await expect(c.page.getByLabel(/^Last Name/).inputValue()).resolves.toBe(customer.lastName);
      await expect(c.page.getByLabel(/^Email/).inputValue()).resolves.toBe(customer.email);
    };
    await filledIn();
    // Also when the page is opened directly, before the signed-in user has loaded.
    await c.page.reload();
    await filledIn();
    await c.context.close();
  });
});
