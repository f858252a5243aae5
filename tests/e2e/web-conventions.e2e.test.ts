import { readFileSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, loginAs, newPage } from '../support/browser';
import { E2E_ADMIN, type Product, startProduct } from '../support/product';
import { selectTab } from '../support/e2e';

// Behaviour found by using the portal as a new user would: how a session ends, what a signed-in
// person without access is told, clicks that must not be lost, the words of failures, inquiry
// subjects, and opening an uploaded file. docs/decisions/0012a-web-conventions.md says why.

let product: Product;
let browser: Browser;
/** The full browser, for the one journey that opens a file in its own tab (the shell has no PDF viewer). */
let pdfBrowser: Browser;
const STAFF = { email: 'wes.staff@lab.test', password: 'staff-password-1' };
const CUSTOMER = { email: 'nora.customer@example.com', password: 'customer-password-1' };
let workSampleId = 0; // assigned to STAFF, no report yet
let reportedSampleId = 0; // assigned to STAFF, report issued
let inquiryId = 0;

async function api(path: string, opts: { token?: string; json?: unknown; form?: FormData } = {}) {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.json !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${product.url}${path}`, {
    method: opts.json !== undefined || opts.form ? 'POST' : 'GET',
    headers,
    body: opts.json !== undefined ? JSON.stringify(opts.json) : opts.form,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

const tokenOf = async (u: { email: string; password: string }): Promise<string> =>
  (await api('/login', { json: u })).token;

async function submitSample(token: string, itemName: string): Promise<number> {
  const form = new FormData();
  for (const [k, v] of Object.entries({
    submitterName: 'Nora Customer',
    submitterEmail: CUSTOMER.email,
    itemName,
    category: 'ceramics-pottery',
    description: 'A glazed earthenware jug.',
    expertValuation: 'true',
  }))
    form.append(k, v);
  form.append(
    'photos',
    new Blob([readFileSync('tests/fixtures/photo.jpg')], { type: 'image/jpeg' }),
    'photo.jpg',
  );
  // A document too: a photo's View opens the gallery's viewer, a document's View opens a tab.
  form.append(
    'documents',
    new Blob([readFileSync('tests/fixtures/document.pdf')], { type: 'application/pdf' }),
    'document.pdf',
  );
  return (await api('/api/samples', { token, form })).id;
}

const vid = (id: number) => `VAL-${String(id).padStart(4, '0')}`;
const visible = (page: Page, text: string | RegExp) =>
  page
    .getByText(text, { exact: typeof text === 'string' })
    .first()
    .waitFor({ state: 'visible', timeout: 10_000 });

beforeAll(async () => {
  [product, browser, pdfBrowser] = await Promise.all([
    startProduct(),
    launchBrowser('shell'),
    launchBrowser('full'),
  ]);
  const admin = await tokenOf(E2E_ADMIN);
  const staff = await api('/api/register', { json: { ...STAFF, firstName: 'Wes', lastName: 'Staff' } });
  await api('/api/register', { json: { ...CUSTOMER, firstName: 'Nora', lastName: 'Customer' } });
  await api(`/api/admin/users/${staff.id}/role`, { token: admin, json: { role: 'staff' } });
  const customer = await tokenOf(CUSTOMER);
  workSampleId = await submitSample(customer, 'Earthenware Jug');
  reportedSampleId = await submitSample(customer, 'Stoneware Crock');
  for (const id of [workSampleId, reportedSampleId])
    await api(`/api/admin/samples/${id}/assign`, { token: admin, json: { staffId: staff.id } });
  await api(`/api/staff/samples/${reportedSampleId}/report`, {
    token: await tokenOf(STAFF),
    json: { elements: [{ element: 'Clay', percentage: 90, purity: null, quality: 'Good', notes: null }] },
  });
  inquiryId = (
    await api('/api/contact', {
      json: {
        firstName: 'Quinn',
        lastName: 'Asker',
        email: 'quinn@example.com',
        subject: 'valuation-quote',
        message: 'How much for a jug?',
      },
    })
  ).id;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await pdfBrowser?.close();
  await product?.stop();
});

/** The login form is shown and stays: a session that was only half cleared would bounce away. */
async function expectLoggedOutOnLogin(page: Page) {
  await page.waitForURL('**/login', { timeout: 10_000 });
  await page.getByRole('button', { name: 'Login', exact: true }).waitFor({ timeout: 10_000 });
  await page.waitForTimeout(800);
  expect(new URL(page.url()).pathname).toBe('/login');
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  expect(await page.getByRole('button', { name: 'Login', exact: true }).isVisible()).toBe(true);
}

describe('ending a session clears it everywhere', () => {
  it('a 401 while generating a report says so, and /login then stays on the login form', async () => {
    const { page, context } = await newPage(browser, { baseURL: product.url });
    await loginAs(page, product.url, STAFF.email, STAFF.password);
    await page.goto('/staff');
    await page.getByRole('button', { name: `Generate Report for ${vid(workSampleId)}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Generate Analysis Report' });
    await dialog.getByLabel('Element Name').fill('Clay');
    await dialog.getByLabel('Percentage').fill('80');
    await dialog.getByRole('button', { name: 'Add Element' }).click();
    await dialog.getByRole('cell', { name: 'Clay', exact: true }).waitFor();
    await page.route('**/api/staff/samples/*/report', (route) =>
      route.fulfill({
        status: 401,
        contentType: 'application/json',
        body: JSON.stringify({ message: 'Invalid or expired token' }),
      }),
    );
    await dialog.getByRole('button', { name: 'Generate PDF Report' }).click();
    await visible(page, 'Your session has expired. Redirecting to login...');
    await expectLoggedOutOnLogin(page);
    await context.close();
  });

  it('a PDF download with no stored token says so, and /login then stays on the login form', async () => {
    const { page, context } = await newPage(browser, { baseURL: product.url });
    await loginAs(page, product.url, STAFF.email, STAFF.password);
    await page.goto('/staff');
    const pdf = page.getByRole('button', { name: `PDF of ${vid(reportedSampleId)}` });
    await pdf.waitFor();
    // The token disappears from storage (another tab, an extension, a manual clear).
    await page.evaluate(() => localStorage.removeItem('token'));
    await pdf.click();
    await visible(page, 'No authentication token found. Please log in again.');
    await expectLoggedOutOnLogin(page);
    await context.close();
  });
});

describe('a signed-in customer on a lab page', () => {
  it("is told the page is not for their account (not 'logged out') and lands on their dashboard", async () => {
    const { page, context } = await newPage(browser, { baseURL: product.url });
    await loginAs(page, product.url, CUSTOMER.email, CUSTOMER.password);
    for (const path of ['/admin', '/staff']) {
      await page.goto(path);
      await page.getByRole('alert').filter({ hasText: 'Unauthorized' }).first().waitFor();
      await visible(page, 'Your account does not have access to this page. Taking you to your dashboard...');
      expect(await page.getByText('You are logged out', { exact: false }).count()).toBe(0);
      await page.waitForURL('**/dashboard');
      await page.getByRole('heading', { name: 'My Dashboard' }).waitFor();
    }
    await context.close();
  });
});

describe('report generation errors', () => {
  it("shows 'Server Error' only for a 500 that says 'Failed to generate'; other errors in their own words", async () => {
    const { page, context } = await newPage(browser, { baseURL: product.url });
    await loginAs(page, product.url, STAFF.email, STAFF.password);
    await page.goto('/staff');
    await page.getByRole('button', { name: `Generate Report for ${vid(workSampleId)}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Generate Analysis Report' });
    await dialog.getByLabel('Element Name').fill('Clay');
    await dialog.getByLabel('Percentage').fill('80');
    await dialog.getByRole('button', { name: 'Add Element' }).click();
    let answer = 'The database is on fire';
    await page.route('**/api/staff/samples/*/report', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ message: answer }),
      }),
    );
    await dialog.getByRole('button', { name: 'Generate PDF Report' }).click();
    await visible(page, 'The database is on fire');
    expect(await page.getByText('Server Error', { exact: true }).count()).toBe(0);

    answer = 'Failed to generate report';
    await dialog.getByRole('button', { name: 'Generate PDF Report' }).click();
    await visible(page, 'Server Error');
    await visible(
      page,
      'Failed to generate report due to a server issue. Please try again or contact support.',
    );
    await context.close();
  });
});

describe('network failures show the screen’s own words, not the browser’s', () => {
  it('login, register, submission and sample page', async () => {
    const { page, context } = await newPage(browser, { baseURL: product.url });
    await page.route(
      (url) => url.pathname === '/login' || url.pathname === '/api/register',
      (route) =>
        route.request().method() === 'POST' ? route.abort('internetdisconnected') : route.fallback(),
    );
    await page.goto('/login');
    await page.getByLabel('Email').fill(CUSTOMER.email);
    await page.getByLabel(/^Password/).fill(CUSTOMER.password);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await visible(page, 'Login failed');
    await visible(page, 'Failed to login');
    // Also written in the form, not only in the toast.
    await page.locator('form').getByRole('alert').filter({ hasText: 'Failed to login' }).waitFor();

    await page.goto('/register');
    await page.getByLabel('Email').fill('new.person@example.com');
    await page.getByLabel(/^Password/).fill('long-enough-1');
    await page.getByLabel('First Name').fill('New');
    await page.getByLabel('Last Name').fill('Person');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await visible(page, 'Failed to register');
    expect(await page.getByText('Failed to fetch', { exact: true }).count()).toBe(0);

    await loginAs(page, product.url, CUSTOMER.email, CUSTOMER.password);
    await page.route('**/api/samples', (route) =>
      route.request().method() === 'POST' ? route.abort('internetdisconnected') : route.fallback(),
    );
    await page.goto('/submit-sample');
    await page.fill('form [name="itemName"]', 'Offline Teapot');
    await page.selectOption('form [name="category"]', 'ceramics-pottery');
    await page.fill('form [name="description"]', 'Sent while the network is down.');
    await page.getByLabel('Expert Valuation').check();
    await page.setInputFiles('form input[name="photos"]', 'tests/fixtures/photo.jpg');
    await page.getByRole('button', { name: 'Submit for Review' }).click();
    await visible(page, 'Failed to submit sample. Please try again.');
    expect(new URL(page.url()).pathname).toBe('/submit-sample');

    await page.route(`**/api/samples/${workSampleId}`, (route) => route.abort('internetdisconnected'));
    await page.goto(`/sample/${workSampleId}`);
    await visible(page, 'Failed to fetch sample details');
    expect(await page.getByText('Failed to fetch', { exact: true }).count()).toBe(0);
    await context.close();
  });
});

describe('the admin inquiries table', () => {
  it('shows the subject’s label, not its stored value', async () => {
    const { page, context } = await newPage(browser, { baseURL: product.url });
    await loginAs(page, product.url, E2E_ADMIN.email, E2E_ADMIN.password);
    await page.goto('/admin');
    await selectTab(page, 'Inquiries');
    const row = page.locator(`tr[data-inquiry-id="${inquiryId}"]`);
    await row.getByText('Valuation Quote', { exact: true }).waitFor();
    expect(await row.getByText('valuation-quote').count()).toBe(0);
    await context.close();
  });
});

describe("'View' on an uploaded file", () => {
  it('opens its tab during the click, before the download has finished', async () => {
    const { page, context } = await newPage(pdfBrowser, { baseURL: product.url });
    await loginAs(page, product.url, CUSTOMER.email, CUSTOMER.password);
    await page.goto(`/sample/${workSampleId}`);
    const view = page.getByRole('button', { name: 'View document.pdf' });
    await view.waitFor();
    // The page's photos and panels finish loading first: a layout shift between Playwright's
    // position check and its click would move the button from under the pointer.
    await page.waitForLoadState('networkidle');
    // Hold the file's download: a pop-up blocker only allows windows opened by the click itself.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/Uploads/**', async (route) => {
      await held;
      await route.fallback();
    });
    // The download is held until the tab exists, so however long the tab takes on a loaded machine
    // it can only have been opened by the click itself.
    const popupOpened = context.waitForEvent('page', { timeout: 15_000 });
    await view.click();
    const popup = await popupOpened;
    release();
    await popup.waitForURL(/^blob:/, { timeout: 10_000 });
    await context.close();
  });
});

/** Presses and releases the mouse where `button` is now: a button that moves in between loses the click. */
async function pressWhereItIsNow(page: Page, button: Locator) {
  const box = await button.boundingBox();
  if (!box) throw new Error('button not visible');
  const viewport = page.viewportSize();
  expect(box.y + box.height).toBeLessThanOrEqual(viewport?.height ?? 0);
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.up();
}

/** Counts submit events, which only a delivered click on a submit button causes here. */
const countSubmits = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { submits: number };
    w.submits = 0;
    document.addEventListener('submit', () => (w.submits += 1), true);
  });
const submits = (page: Page) => page.evaluate(() => (window as unknown as { submits: number }).submits);

/** Leaves the focus in the password field, whose error appears when it loses the focus. */
async function badEmailShortPassword(page: Page) {
  await page.getByLabel('Email').fill('not-an-email');
  await page.getByLabel(/^Password/).fill('abc');
}

describe('a press on a submit button right after typing is never lost', () => {
  const cases: {
    name: string;
    path: string;
    as?: { email: string; password: string };
    width?: number;
    /** Brings the form on screen when the path alone does not. */
    open?: (page: Page) => Promise<void>;
    type: (page: Page) => Promise<void>;
    button: string;
    /** Shown only when the form was submitted (the fields it names never lost focus). */
    thenShows?: string;
  }[] = [
    {
      name: 'register',
      path: '/register',
      type: badEmailShortPassword,
      button: 'Sign Up',
      thenShows: 'First name is required',
    },
    {
      name: 'register at 375 px',
      path: '/register',
      width: 375,
      type: badEmailShortPassword,
      button: 'Sign Up',
      thenShows: 'First name is required',
    },
    {
      name: 'login',
      path: '/login',
      type: badEmailShortPassword,
      button: 'Login',
    },
    {
      name: 'contact',
      path: '/contact',
      type: async (page) => {
        await page.getByLabel('First Name').fill('Ada');
        await page.getByLabel('Last Name').fill('Lovelace');
        await page.getByLabel('Email').fill('not-an-email');
      },
      button: 'Send Message',
    },
    {
      name: 'profile',
      path: '/profile',
      as: CUSTOMER,
      type: async (page) => {
        await page.getByLabel('Email').fill('not-an-email');
      },
      button: 'Update Profile',
    },
    {
      name: 'submit sample',
      path: '/submit-sample',
      as: CUSTOMER,
      type: async (page) => {
        await page.fill('form [name="submitterEmail"]', 'not-an-email');
      },
      button: 'Submit for Review',
    },
    {
      name: 'lab settings',
      path: '/admin',
      as: E2E_ADMIN,
      open: (page) => selectTab(page, 'Settings'),
      type: async (page) => {
        await page.getByLabel('Lab Name').fill('');
        await page.getByLabel('Website').fill('not a url');
      },
      button: 'Save Settings',
    },
  ];

  for (const c of cases) {
    it(c.name, async () => {
      const { page, context } = await newPage(browser, {
        baseURL: product.url,
        width: c.width ?? 1280,
        height: 2400,
      });
      if (c.as) await loginAs(page, product.url, c.as.email, c.as.password);
      await page.goto(c.path);
      await c.open?.(page);
      await page.getByRole('button', { name: c.button, exact: true }).waitFor();
      await countSubmits(page);
      await c.type(page);
      await pressWhereItIsNow(page, page.getByRole('button', { name: c.button, exact: true }));
      await expect.poll(() => submits(page), { timeout: 5_000 }).toBe(1);
      if (c.thenShows) await visible(page, c.thenShows);
      await context.close();
    });
  }
});
