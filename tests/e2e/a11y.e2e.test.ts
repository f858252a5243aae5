import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AxeViolation, loginAs, newPage, seriousAxeViolations } from '../support/browser';
import { selectTab, startE2E, stopE2E } from '../support/e2e';
import {
  element,
  issueReport,
  PHOTO_PNG,
  photoFile,
  submissionFields,
  submitSample,
} from '../support/factories';
import { callOk, loginToken, registerAccount } from '../support/http';
import { E2E_ADMIN, type Product } from '../support/product';

// Every route of the product, public and logged in as customer, staff and admin, has no serious or
// critical axe-core violations (docs/product/screens.md, WCAG 2.1 AA), also in the states that matter: form
// errors, the mobile menu, the admin tabs and the report dialog.

let product: Product;
let browser: Browser;
const STAFF = { email: 'a11y.staff@lab.test', password: 'staff-password-1' };
const CUSTOMER = { email: 'a11y.customer@lab.test', password: 'customer-password-1' };
let sampleId = 0;
let reportCode = '';

const login = (u: { email: string; password: string }) => loginToken(product, u.email, u.password);

beforeAll(async () => {
  ({ product, browser } = await startE2E());
  const adminToken = await login(E2E_ADMIN);
  const staff = await registerAccount(product, { ...STAFF, firstName: 'Marcus', lastName: 'Bennett' });
  await registerAccount(product, { ...CUSTOMER, firstName: 'Olivia', lastName: 'Hart' });
  await callOk(product, 'POST', `/api/admin/users/${staff.id}/role`, {
    token: adminToken,
    json: { role: 'staff' },
  });
  const customerToken = await login(CUSTOMER);
  sampleId = await submitSample(
    product,
    customerToken,
    submissionFields({
      submitterName: 'Olivia Hart',
      submitterEmail: CUSTOMER.email,
      itemName: 'Georgian Pocket Watch',
      category: 'jewelry-watches',
      description: 'Gold pocket watch with enamel dial, signed movement.',
      authenticityCheck: 'true',
    }),
  );
  await callOk(product, 'POST', `/api/admin/samples/${sampleId}/assign`, {
    token: adminToken,
    json: { staffId: staff.id },
  });
  const staffToken = await login(STAFF);
  const issued = await issueReport(product, sampleId, staffToken, [
    element('Gold', 75, { purity: '18k', quality: 'Excellent', notes: '<p>Hallmarked</p>' }),
  ]);
  reportCode = issued.reportCode;
  await callOk(product, 'POST', `/api/staff/samples/${sampleId}/status`, {
    token: staffToken,
    json: { status: 'completed', comment: '' },
  });
  // One inquiry so the admin's Inquiries tab has a row.
  await callOk(product, 'POST', '/api/contact', {
    json: {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      subject: 'general-inquiry',
      message: 'Hello',
    },
  });
}, 180_000);

afterAll(() => stopE2E({ product, browser }));

/**
 * Waits until the route has rendered its content (no loading spinner, network quiet). Transitions still
 * running are waited for by seriousAxeViolations itself, so no fixed pause follows.
 */
async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  await page.locator('main h1, main h2, main [role="heading"]').first().waitFor({ timeout: 15_000 });
  await page.waitForFunction(
    () => !document.querySelector('main')?.textContent?.includes('Loading...'),
    null,
    {
      timeout: 15_000,
    },
  );
}

const describeViolations = (where: string, vs: AxeViolation[]) =>
  vs.map(
    (v) =>
      `${where}: [${v.impact}] ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );

async function check(page: Page, where: string) {
  expect(describeViolations(where, await seriousAxeViolations(page))).toEqual([]);
}

type Role = 'visitor' | 'customer' | 'staff' | 'admin';
const ROUTES: Record<Role, () => string[]> = {
  visitor: () => [
    '/',
    '/about',
    '/services',
    '/contact',
    '/verify-report',
    `/verify-report?code=${reportCode}`,
    '/verify-report?code=ZZZZZZZZ',
    '/login',
    '/register',
    '/privacy',
    '/terms',
    '/cookies',
    '/no-such-page',
  ],
  customer: () => [
    '/',
    '/submit-sample',
    '/dashboard',
    `/sample/${sampleId}`,
    '/sample/999999',
    '/profile',
    '/contact',
  ],
  staff: () => ['/staff', '/admin', `/sample/${sampleId}`, '/profile', '/verify-report'],
  admin: () => ['/admin', '/staff', `/sample/${sampleId}`, '/profile', '/verify-report'],
};
const CREDENTIALS: Record<Exclude<Role, 'visitor'>, { email: string; password: string }> = {
  customer: CUSTOMER,
  staff: STAFF,
  admin: E2E_ADMIN,
};

for (const role of ['visitor', 'customer', 'staff', 'admin'] as const) {
  describe(`axe on every route as ${role}`, () => {
    let context: BrowserContext;
    let page: Page;
    beforeAll(async () => {
      ({ context, page } = await newPage(browser, { baseURL: product.url }));
      if (role !== 'visitor')
        await loginAs(page, product.url, CREDENTIALS[role].email, CREDENTIALS[role].password);
    });
    afterAll(async () => {
      await context?.close();
    });

    it('has no serious or critical violations on any of its routes', async () => {
      const found: string[] = [];
      for (const path of ROUTES[role]()) {
        await page.goto(path);
        await settle(page);
        found.push(...describeViolations(`${role} ${path}`, await seriousAxeViolations(page)));
      }
      expect(found).toEqual([]);
    });
  });
}

describe('axe in the states that matter', () => {
  it('the contact form with its errors shown, and the success state', async () => {
    const { page, context } = await newPage(browser, { baseURL: product.url });
    await page.goto('/contact');
    await settle(page);
    await page.getByRole('button', { name: 'Send Message' }).click();
    await page.getByText('First name is required').waitFor();
    await check(page, 'contact errors');
    await page.getByLabel(/^First Name/).fill('Ada');
    await page.getByLabel(/^Last Name/).fill('Lovelace');
    await page.getByLabel(/^Email/).fill('ada@example.com');
    await page.getByLabel(/^Subject/).selectOption('consultation-request');
    await page.getByLabel(/^Message/).fill('May I book a consultation?');
    await page.getByRole('button', { name: 'Send Message' }).click();
    await page.getByRole('heading', { name: 'Message Sent Successfully!' }).waitFor();
    await check(page, 'contact success');
    await context.close();
  });

  it('the mobile menu at 375 px, logged out and logged in', async () => {
    for (const who of [null, CUSTOMER] as const) {
      const { page, context } = await newPage(browser, { baseURL: product.url, width: 375, height: 800 });
      if (who) await loginAs(page, product.url, who.email, who.password);
      await page.goto('/');
      await settle(page);
      await check(page, `375 px / ${who ? 'customer' : 'visitor'}`);
      await page.getByRole('button', { name: 'Toggle navigation menu' }).click();
      await page.getByRole('navigation', { name: 'Mobile' }).waitFor();
      await check(page, `mobile menu ${who ? 'customer' : 'visitor'}`);
      await context.close();
    }
  });

  it("the admin dashboard's tabs", async () => {
    const { page, context } = await newPage(browser, { baseURL: product.url });
    await loginAs(page, product.url, E2E_ADMIN.email, E2E_ADMIN.password);
    await page.goto('/admin');
    await settle(page);
    for (const tab of ['Staff', 'Settings', 'Inquiries', 'Outbox', 'Samples']) {
      await selectTab(page, tab);
      await page.waitForLoadState('networkidle');
      await check(page, `admin tab ${tab}`);
    }
    await context.close();
  });

  it("the staff member's Generate Analysis Report dialog", async () => {
    const { page, context } = await newPage(browser, { baseURL: product.url });
    await loginAs(page, product.url, STAFF.email, STAFF.password);
    // A second, not yet completed sample so that 'Generate Report' shows.
    const customerToken = await login(CUSTOMER);
    const secondId = await submitSample(
      product,
      customerToken,
      submissionFields({
        submitterName: 'Olivia Hart',
        submitterEmail: CUSTOMER.email,
        itemName: 'Blue and White Vase',
        category: 'ceramics-pottery',
        description: 'Porcelain vase with a six-character mark.',
      }),
      [photoFile('photo.png', PHOTO_PNG)],
    );
    const adminToken = await login(E2E_ADMIN);
    const users = await callOk<{ id: number; email: string }[]>(product, 'GET', '/api/admin/users', {
      token: adminToken,
    });
    const staffId = users.find((u) => u.email === STAFF.email)?.id;
    await callOk(product, 'POST', `/api/admin/samples/${secondId}/assign`, {
      token: adminToken,
      json: { staffId },
    });
    await page.goto('/staff');
    await settle(page);
    await page.getByRole('button', { name: 'Generate Report' }).first().click();
    await page.getByRole('dialog').waitFor();
    await check(page, 'staff report dialog');
    await context.close();
  });
});
