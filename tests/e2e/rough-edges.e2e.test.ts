import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousAxeViolations, sessionPage } from '../support/browser';
import { type E2E, selectTab, startE2E, stopE2E, visible } from '../support/e2e';
import { element, issueReport, submitSample } from '../support/factories';
import { call, callOk, loginToken, registerAccount } from '../support/http';
import { E2E_ADMIN } from '../support/product';

// The rough edges a new user met (docs/product/screens.md): each test here failed on the code before
// its fix. Mobile ones run at 375 px.

let e2e: E2E;
const url = () => e2e.product.url;
let adminToken = '';
let customerToken = '';
let sampleId = 0;
let reportCode = '';

const customer = {
  email: 'rhea.edges@example.com',
  password: 'rough-edges-customer-7',
  firstName: 'Rhea',
  lastName: 'Edges',
};
const analyst = {
  email: 'ivo.edges@example.com',
  password: 'rough-edges-analyst-7',
  firstName: 'Ivo',
  lastName: 'Marsh',
};

beforeAll(async () => {
  e2e = await startE2E();
  await registerAccount(e2e.product, customer);
  const staff = await registerAccount(e2e.product, analyst);
  adminToken = await loginToken(e2e.product, E2E_ADMIN.email, E2E_ADMIN.password);
  await callOk(e2e.product, 'POST', `/api/admin/users/${staff.id}/role`, {
    token: adminToken,
    json: { role: 'staff' },
  });
  customerToken = await loginToken(e2e.product, customer.email, customer.password);
  sampleId = await submitSample(e2e.product, customerToken);
  await callOk(e2e.product, 'POST', `/api/admin/samples/${sampleId}/assign`, {
    token: adminToken,
    json: { staffId: staff.id },
  });
  reportCode = (await issueReport(e2e.product, sampleId, adminToken, [element('Silver', 92.5)])).reportCode;
});
afterAll(() => stopE2E(e2e));

const session = (token: string | null, width = 1366, height = 900) =>
  sessionPage(e2e.browser, { baseURL: url(), token, width, height });

/** Whether the element lies wholly inside the page's viewport width (nothing cut off at the side). */
async function insideWidth(page: Page, locator: ReturnType<Page['locator']>) {
  const box = await locator.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  return Boolean(box) && (box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= width + 0.5;
}

describe('signing in', () => {
  it('tells a deactivated account with the right password why, and whom to contact', async () => {
    const person = {
      email: 'dora.deactivated@example.com',
      password: 'rough-edges-dora-7',
      firstName: 'Dora',
      lastName: 'Gone',
    };
    const account = await registerAccount(e2e.product, person);
    await callOk(e2e.product, 'POST', `/api/admin/users/${account.id}/active`, {
      token: adminToken,
      json: { isActive: false },
    });
    const { page, context } = await session(null);
    await page.goto('/login');
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel(/^Password/).fill(person.password);
    await page.getByRole('button', { name: 'Login' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'This account has been deactivated.' }).first();
    await alert.waitFor();
    expect(await alert.textContent()).toContain('info@heritagevaluationlab.com');
    // A wrong password still hears the usual words.
    await page.getByLabel(/^Password/).fill('not-the-password-1');
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid email or password' }).first().waitFor();
    await context.close();
  });

  it('after registering, /login says a confirmation mail was sent and keeps the e-mail', async () => {
    const { page, context } = await session(null, 375, 800);
    await page.goto('/register');
    await page.getByLabel('Email').fill('nia.new@example.com');
    await page.getByLabel(/^Password/).fill('rough-edges-nia-7');
    await page.getByLabel('First Name').fill('Nia');
    await page.getByLabel('Last Name').fill('New');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.waitForURL('**/login');
    await visible(
      page,
      'We sent a confirmation link to nia.new@example.com. You can log in now and confirm your address from that mail.',
    );
    await expect(page.getByLabel('Email').inputValue()).resolves.toBe('nia.new@example.com');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  });
});

describe('a link from a mail', () => {
  it('asks a signed-out reader neutrally to log in, then opens the sample', async () => {
    const { page, context } = await session(null, 375, 800);
    await page.goto(`/sample/${sampleId}?from=mail`);
    await page.waitForURL('**/login');
    await visible(page, 'Please log in to continue');
    expect(await page.getByText('Unauthorized').count()).toBe(0);
    expect(await page.getByRole('alert').count()).toBe(0);
    await page.getByLabel('Email').fill(customer.email);
    await page.getByLabel(/^Password/).fill(customer.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL(`**/sample/${sampleId}?from=mail`);
    await page
      .getByRole('heading', { name: /Georgian Silver Teapot/ })
      .first()
      .waitFor();
    await context.close();
  });

  it('keeps the documented Unauthorized for a direct visit, and the toast stays behind on Forgot password', async () => {
    const { page, context } = await session(null);
    await page.goto(`/sample/${sampleId}`);
    const toast = page.locator('.mantine-Notification-root').filter({ hasText: 'Unauthorized' });
    await toast.first().waitFor();
    await page.waitForURL('**/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL('**/forgot-password');
    await toast.first().waitFor({ state: 'detached' });
    await context.close();
  });
});

describe('the admin Staff tab', () => {
  it('asks before a role change, naming the person and both roles; an arrow key alone changes nothing', async () => {
    const person = {
      email: 'pia.promoted@example.com',
      password: 'rough-edges-pia-7',
      firstName: 'Pia',
      lastName: 'Promoted',
    };
    const account = await registerAccount(e2e.product, person);
    const { page, context } = await session(adminToken);
    await page.goto('/admin');
    await selectTab(page, 'Staff');
    await page.getByLabel('Search accounts').fill('pia.promoted');
    const select = page.getByLabel('Role of Pia Promoted', { exact: true });
    await select.waitFor();
    await select.focus();
    await page.keyboard.press('ArrowDown');
    const dialog = page.getByRole('dialog', { name: 'Change the role of Pia Promoted?' });
    await dialog.waitFor();
    await dialog.getByText('Pia Promoted (pia.promoted@example.com) goes from User to Staff.').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect(select.inputValue()).resolves.toBe('user');
    const users = await call(e2e.product, 'GET', `/api/admin/users?search=pia.promoted`, {
      token: adminToken,
    });
    expect(JSON.stringify(users.body)).toContain('"role":"user"');

    await select.selectOption('admin');
    await dialog.waitFor();
    await dialog.getByText(/goes from User to Admin\. An admin manages every account and role/).waitFor();
    await dialog.getByRole('button', { name: 'Make admin' }).click();
    await visible(page, 'User role updated');
    await expect(select.inputValue()).resolves.toBe('admin');
    await dialog.waitFor({ state: 'detached' });
    expect(await seriousAxeViolations(page)).toEqual([]);
    const after = await call(e2e.product, 'GET', `/api/admin/users?search=pia.promoted`, {
      token: adminToken,
    });
    expect(JSON.stringify(after.body)).toContain(`"id":${account.id}`);
    expect(JSON.stringify(after.body)).toContain('"role":"admin"');
    await context.close();
  });
});

describe('the sample page at 375 px', () => {
  it('shows share links and who looked as cards, every action on screen', async () => {
    await callOk(e2e.product, 'POST', `/api/samples/${sampleId}/share-links`, {
      token: customerToken,
      json: { expiresInDays: 30, label: 'Insurer' },
    });
    await callOk(e2e.product, 'GET', `/api/reports/verify/${reportCode}`);
    const { page, context } = await session(customerToken, 375, 800);
    await page.goto(`/sample/${sampleId}`);
    const links = page.getByRole('region', { name: 'Share links' });
    const row = links.getByTestId('share-link-row').first();
    await row.waitFor();
    // A listed link is named by its last characters (the whole link is shown once, when made).
    for (const control of [
      row.getByLabel(/^Link ending in /),
      row.getByRole('button', { name: /^Revoke/ }),
      row.getByText('Active', { exact: true }),
    ]) {
      await control.scrollIntoViewIfNeeded();
      expect(await insideWidth(page, control)).toBe(true);
    }
    const log = page.getByRole('region', { name: 'Who looked at my report' });
    const entry = log.getByTestId('verification-row').first();
    await entry.waitFor();
    for (const cell of [
      entry.getByText('Report code', { exact: true }),
      entry.locator('[data-label="Network"]'),
    ]) {
      await cell.scrollIntoViewIfNeeded();
      expect(await insideWidth(page, cell)).toBe(true);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  });
});

describe('the submit form', () => {
  it('keeps an oversized photo listed and marked, and does not submit until it is removed', async () => {
    const { page, context } = await session(customerToken);
    await page.goto('/submit-sample');
    const input = page.locator('input[type="file"][name="photos"]');
    await input.setInputFiles({
      name: 'huge.jpg',
      mimeType: 'image/jpeg',
      buffer: Buffer.alloc(6 * 1024 * 1024, 1),
    });
    const previews = page.getByTestId('file-previews');
    await previews.getByText('huge.jpg').waitFor();
    await previews.getByText(/too large/).waitFor();
    await visible(page, /Each file must be 5MB or smaller: huge\.jpg/);
    await page.getByRole('button', { name: 'Submit for Review' }).click();
    // Still on the form: nothing was sent.
    await visible(page, /Each file must be 5MB or smaller: huge\.jpg/);
    expect(new URL(page.url()).pathname).toBe('/submit-sample');
    await page.getByRole('button', { name: 'Remove huge.jpg' }).click();
    await previews.waitFor({ state: 'detached' });
    // The field's own error is gone (the toast of the refused submit may still be fading).
    await expect(input.getAttribute('aria-invalid')).resolves.toBeNull();
    expect(
      await page
        .locator('[id$="-error"]')
        .filter({ hasText: /5MB or smaller/ })
        .count(),
    ).toBe(0);
    await context.close();
  });
});

describe('the staff dashboard', () => {
  it('has a counter for every status, so the counters add up to Assigned Samples', async () => {
    const analystToken = await loginToken(e2e.product, analyst.email, analyst.password);
    const me = (await callOk(e2e.product, 'GET', '/api/auth/user', { token: analystToken })) as {
      id: number;
    };
    // Beside the one from beforeAll: one sample in review and one on hold.
    for (const status of ['review', 'on-hold']) {
      const id = await submitSample(e2e.product, customerToken);
      await callOk(e2e.product, 'POST', `/api/admin/samples/${id}/assign`, {
        token: adminToken,
        json: { staffId: me.id },
      });
      await callOk(e2e.product, 'POST', `/api/staff/samples/${id}/status`, {
        token: adminToken,
        json: { status },
      });
    }
    const { page, context } = await session(analystToken, 375, 800);
    await page.goto('/staff');
    await page.getByRole('heading', { name: 'Staff Dashboard' }).waitFor();
    const counter = async (label: string) => {
      const card = page
        .locator('.mantine-Card-root', { has: page.getByText(label, { exact: true }) })
        .first();
      await expect.poll(() => card.innerText(), { timeout: 30_000 }).toMatch(/\d/);
      return Number(/(\d+)/.exec(await card.innerText())?.[1]);
    };
    const assigned = await counter('Assigned Samples');
    const parts = {
      pending: await counter('Pending'),
      inProgress: await counter('In Progress'),
      inReview: await counter('In Review'),
      onHold: await counter('On Hold'),
      completed: await counter('Completed'),
    };
    expect(parts.inReview).toBe(1);
    expect(parts.onHold).toBe(1);
    expect(Object.values(parts).reduce((a, b) => a + b, 0)).toBe(assigned);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  });
});

describe('keyboard focus', () => {
  it('returns to the menu button when the mobile menu is closed with Escape', async () => {
    const { page, context } = await session(null, 375, 800);
    await page.goto('/');
    const burger = page.getByRole('button', { name: 'Toggle navigation menu' });
    await burger.click();
    await page.getByRole('navigation', { name: 'Mobile' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('navigation', { name: 'Mobile' }).waitFor({ state: 'hidden' });
    await page.waitForFunction(
      () => document.activeElement?.getAttribute('aria-label') === 'Toggle navigation menu',
    );
    await context.close();
  });
});

describe('polish', () => {
  it('prints no console error on /, and the services page states how the expected date is set', async () => {
    const { page, context } = await session(null);
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await page.goto('/');
    await page.waitForLoadState('networkidle');
    expect(errors).toEqual([]);
    await page.goto('/services');
    await visible(page, /end of this range: 10 business days for standard and 5 for urgent/);
    await context.close();
  });

  it('keeps the verify placeholder in ordinary case', async () => {
    const { page, context } = await session(null);
    await page.goto('/verify-report');
    const field = page.getByLabel('Verification Code');
    await field.waitFor();
    const transform = await field.evaluate((el) => getComputedStyle(el, '::placeholder').textTransform);
    expect(transform).toBe('none');
    await field.fill('abcd2345');
    await expect(field.inputValue()).resolves.toBe('ABCD2345');
    await context.close();
  });

  it('at 375 px the admin tabs come before the charts, which open on demand', async () => {
    const { page, context } = await session(adminToken, 375, 800);
    await page.goto('/admin');
    const tabs = page.getByRole('tablist');
    await tabs.waitFor();
    const box = await tabs.boundingBox();
    expect(box?.y ?? Infinity).toBeLessThan(900);
    const toggle = page.getByRole('button', { name: 'Show charts' });
    await toggle.click();
    await page.getByRole('heading', { name: 'Submissions per week' }).waitFor();
    await expect(
      page.getByRole('button', { name: 'Hide charts' }).getAttribute('aria-expanded'),
    ).resolves.toBe('true');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  });

  it('at 375 px the contact success check sits below the header', async () => {
    const { page, context } = await session(null, 375, 700);
    await page.goto('/contact');
    await page.getByLabel(/^First Name/).fill('Sam');
    await page.getByLabel(/^Last Name/).fill('Sender');
    await page.getByLabel(/^Email/).fill('sam.sender@example.com');
    await page.getByLabel(/^Subject/).selectOption('other');
    await page.getByLabel(/^Message/).fill('A question about a clock, long enough to send.');
    await page.getByRole('button', { name: 'Send Message' }).click();
    const heading = page.getByRole('heading', { name: 'Message Sent Successfully!' });
    await heading.waitFor();
    await page.waitForFunction(() => document.activeElement?.textContent === 'Message Sent Successfully!');
    const header = await page.locator('header').first().boundingBox();
    const check = await page.locator('.mantine-ThemeIcon-root').last().boundingBox();
    expect(check && header).toBeTruthy();
    expect(check?.y ?? 0).toBeGreaterThanOrEqual((header?.y ?? 0) + (header?.height ?? 0) - 1);
    await context.close();
  });
});

describe('second review and "Also mark the sample Completed"', () => {
  it('the tick is kept: approval completes the sample, and the client sees report and status together', async () => {
    const settings = new FormData();
    settings.append(
      'settings',
      JSON.stringify({ labName: 'Heritage Valuation Laboratory', requireReview: true }),
    );
    await callOk(e2e.product, 'POST', '/api/lab/settings', { token: adminToken, form: settings });
    try {
      const analystToken = await loginToken(e2e.product, analyst.email, analyst.password);
      const id = await submitSample(e2e.product, customerToken);
      const me = await callOk<{ id: number }>(e2e.product, 'GET', '/api/auth/user', { token: analystToken });
      await callOk(e2e.product, 'POST', `/api/admin/samples/${id}/assign`, {
        token: adminToken,
        json: { staffId: me.id },
      });
      const { page, context } = await session(analystToken);
      await page.goto(`/sample/${id}`);
      await page.getByLabel('Element Name').fill('Silver');
      await page.getByLabel('Percentage').fill('92.5');
      await page.getByRole('button', { name: 'Add Element' }).click();
      await page.getByLabel('Also mark the sample Completed').check();
      await page.getByRole('button', { name: 'Generate PDF Report' }).click();
      await visible(page, /The sample will be marked Completed when the report is approved\./);
      await context.close();

      const client = await session(customerToken);
      const statusOf = async () =>
        (await callOk<{ status: string }>(e2e.product, 'GET', `/api/samples/${id}`, { token: customerToken }))
          .status;
      expect(await statusOf()).not.toBe('completed');
      await callOk(e2e.product, 'POST', `/api/staff/samples/${id}/report/approve`, { token: adminToken });
      expect(await statusOf()).toBe('completed');
      await client.page.goto('/dashboard');
      await client.page.getByText('Report Generated (done)').first().waitFor({ state: 'attached' });
      await client.page.goto(`/sample/${id}`);
      await client.page.getByText('Completed', { exact: true }).first().waitFor();
      await client.page.getByRole('button', { name: 'Download PDF' }).first().waitFor();
      await client.context.close();
    } finally {
      const off = new FormData();
      off.append(
        'settings',
        JSON.stringify({ labName: 'Heritage Valuation Laboratory', requireReview: false }),
      );
      await callOk(e2e.product, 'POST', '/api/lab/settings', { token: adminToken, form: off });
    }
  });
});
