import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAs, newPage, seriousAxeViolations } from '../support/browser';
import { selectTab, startE2E, stopE2E } from '../support/e2e';
import { fixturePath, photoFile, submissionFields, submitSample } from '../support/factories';
import { call, loginToken, registerAccount } from '../support/http';
import { E2E_ADMIN, type Product } from '../support/product';

let product: Product;
let browser: Browser;

const customer = {
  email: 'cora.client@example.com',
  password: 'client-password-1',
  firstName: 'Cora',
  lastName: 'Client',
};
const analyst = {
  email: 'sam.analyst@example.com',
  password: 'analyst-password-1',
  firstName: 'Sam',
  lastName: 'Analyst',
};

const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first().waitFor();
const row = (page: Page, id: number) => page.locator(`tr[data-sample-id="${id}"]`);

beforeAll(async () => {
  ({ product, browser } = await startE2E());
  await registerAccount(product, customer);
  await registerAccount(product, analyst);
});
afterAll(() => stopE2E({ product, browser }));

describe('the lab at work', () => {
  let sampleId = 0;

  it('admin promotes a user to staff, assigns a sample, saves settings with a logo, marks an inquiry responded', async () => {
    const customerToken = await loginToken(product, customer.email, customer.password);
    sampleId = await submitSample(
      product,
      customerToken,
      submissionFields({
        submitterName: 'Cora Client',
        submitterEmail: customer.email,
        itemName: 'Ming Style Vase',
        category: 'ceramics-pottery',
        description: 'A blue and white vase.',
      }),
      [photoFile('vase.jpg')],
    );
    const inquiry = await call(product, 'POST', '/api/contact', {
      json: {
        firstName: 'Ines',
        lastName: 'Inquirer',
        email: 'ines@example.com',
        subject: 'valuation-quote',
        message: 'I would like a quote for a large collection of porcelain figurines from my grandmother.',
      },
    });
    expect(inquiry.status).toBe(201);

    const { page, context } = await newPage(browser, { baseURL: product.url });
    await loginAs(page, product.url, E2E_ADMIN.email, E2E_ADMIN.password);
    await page.goto('/admin');
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    for (const label of ['Total Samples', 'Active Samples', 'Completed', 'Total Staff', 'Contact Inquiries'])
      await page.getByText(label, { exact: true }).first().waitFor();
    await page.getByRole('heading', { name: 'Submissions per week' }).waitFor();
    await page.getByRole('heading', { name: 'Samples by status' }).waitFor();

    // Staff tab: make the analyst a staff member.
    await selectTab(page, 'Staff');
    const roleSelect = page.getByLabel('Role of Sam Analyst', { exact: true });
    await expect(roleSelect.inputValue()).resolves.toBe('user');
    await roleSelect.selectOption('staff');
    // A role change is confirmed first, naming the person and both roles.
    const confirmRole = page.getByRole('dialog', { name: 'Change the role of Sam Analyst?' });
    await confirmRole.getByText('goes from User to Staff.', { exact: false }).waitFor();
    await confirmRole.getByRole('button', { name: 'Change role' }).click();
    await toast(page, 'User role updated');
    await expect(roleSelect.inputValue()).resolves.toBe('staff');

    // Samples tab: 'Unassigned', the required choice, then the assignment.
    await selectTab(page, 'Samples');
    const r = row(page, sampleId);
    await r.getByText('Unassigned').waitFor();
    await r.getByRole('button', { name: /^Assign/ }).click();
    await r.getByText('Please select a staff member').waitFor();
    await r.getByRole('combobox').selectOption({ label: 'Sam Analyst' });
    await r.getByRole('button', { name: /^Assign/ }).click();
    await toast(page, 'Sample assigned');
    await r.getByRole('cell', { name: 'Sam Analyst', exact: true }).waitFor();
    // Opened again, the row's selector shows who has the sample now.
    await page.reload();
    await selectTab(page, 'Samples');
    await row(page, sampleId).getByRole('cell', { name: 'Sam Analyst', exact: true }).waitFor();
    await expect(
      row(page, sampleId)
        .getByRole('combobox')
        .evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]?.textContent),
    ).resolves.toBe('Sam Analyst');
    await expect(page.getByRole('button', { name: 'Previous' }).isDisabled()).resolves.toBe(true);
    await expect(page.getByRole('button', { name: 'Next' }).isDisabled()).resolves.toBe(true);

    // Settings tab: validation, then a save with a logo.
    await selectTab(page, 'Settings');
    await page.getByText('No logo uploaded.').waitFor();
    await page.getByLabel('Lab Name').fill('');
    await page.getByLabel('Website').fill('not a url');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await page.getByText('Lab name is required').waitFor();
    await page.getByText('Invalid URL').waitFor();
    await page.getByLabel('Lab Name').fill('Harbor Valuation Lab');
    await page.getByLabel('Website').fill('https://harbor.example.com');
    await page.getByLabel('Certification Number').fill('CERT-2026-7');
    await page.locator('input[type="file"]').setInputFiles(fixturePath('photo.png'));
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await toast(page, 'Lab settings updated');
    await page.getByRole('img', { name: 'Current lab logo' }).waitFor();
    const adminToken = await page.evaluate(() => localStorage.getItem('token'));
    const saved = await call(product, 'GET', '/api/lab/settings', { token: adminToken ?? '' });
    expect(saved.body).toMatchObject({
      labName: 'Harbor Valuation Lab',
      website: 'https://harbor.example.com',
      certificationNumber: 'CERT-2026-7',
      // Never saved before, so the form opened with the phone the site shows.
      phone: '+1 (617) 555-0142',
      logo: expect.stringMatching(/^\/Uploads\/logo\/.+\.png$/),
    });

    // Inquiries tab: the truncated message, Mark Responded, and the button hidden afterwards.
    await selectTab(page, 'Inquiries');
    const q = page.locator(`tr[data-inquiry-id="${(inquiry.body as { id: number }).id}"]`);
    await q.getByText('I would like a quote', { exact: false }).waitFor();
    await q.getByRole('button', { name: 'Mark Responded' }).click();
    await toast(page, 'Inquiry status updated');
    await q.getByText('responded').waitFor();
    await expect(q.getByRole('button', { name: 'Mark Responded' }).count()).resolves.toBe(0);
    await expect(q.getByRole('button', { name: 'Mark Pending' }).count()).resolves.toBe(1);

    await page.getByRole('button', { name: 'Refresh' }).click();
    await toast(page, 'Refreshed');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  });

  it('staff sees the sample, starts analysis and moves it on; the customer’s progress and badge follow', async () => {
    const staffSession = await newPage(browser, { baseURL: product.url });
    const sp = staffSession.page;
    await loginAs(sp, product.url, analyst.email, analyst.password);

    // The admin Samples tab: only the assigned staff member gets 'Start Analysis'; no admin tabs.
    await sp.goto('/admin');
    await sp.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    await expect(sp.getByRole('tab', { name: 'Settings' }).count()).resolves.toBe(0);
    const adminRow = row(sp, sampleId);
    await adminRow.getByRole('button', { name: 'Start Analysis' }).click();
    await adminRow.getByText('In Progress').waitFor();

    await sp.goto('/staff');
    await sp.getByRole('heading', { name: 'Staff Dashboard' }).waitFor();
    await sp.getByText('Welcome, Sam').waitFor();
    const r = row(sp, sampleId);
    await r.getByText('Ming Style Vase').waitFor();
    await r.getByText('Cora Client').waitFor();
    await r.getByRole('button', { name: /Generate Report/ }).waitFor();
    expect(await seriousAxeViolations(sp)).toEqual([]);

    const customerSession = await newPage(browser, { baseURL: product.url });
    const cp = customerSession.page;
    await loginAs(cp, product.url, customer.email, customer.password);
    const expectCustomerSees = async (badge: string, done: string[]) => {
      await cp.goto('/dashboard');
      await row(cp, sampleId).getByText(badge, { exact: true }).waitFor();
      for (const step of done) await cp.getByText(`${step} (done)`).first().waitFor({ state: 'attached' });
    };
    await expectCustomerSees('In Progress', ['Item Submitted', 'Initial Review']);

    const select = r.getByLabel(/^Status of/);
    const confirmStatus = async () => {
      const dialog = sp.getByRole('dialog', { name: 'Change status?' });
      await dialog.getByRole('button', { name: 'Save status' }).click();
      await dialog.waitFor({ state: 'hidden' });
    };
    await select.selectOption('analysis');
    await confirmStatus();
    await r.locator('[data-status="analysis"]').waitFor();
    await expectCustomerSees('Analysis', ['Initial Review', 'Expert Analysis']);

    await select.selectOption('completed');
    await confirmStatus();
    await r.locator('[data-status="completed"]').waitFor();
    await expect(r.getByRole('button', { name: /Generate Report/ }).count()).resolves.toBe(0);
    await expectCustomerSees('Completed', ['Expert Analysis', 'Report Generated']);

    await staffSession.context.close();
    await customerSession.context.close();
  });

  it('works at 375 px for staff and admin', async () => {
    for (const [who, path, heading] of [
      [analyst, '/staff', 'Staff Dashboard'],
      [E2E_ADMIN, '/admin', 'Admin Dashboard'],
    ] as const) {
      const { page, context } = await newPage(browser, { baseURL: product.url, width: 375, height: 800 });
      await loginAs(page, product.url, who.email, who.password);
      await page.goto(path);
      await page.getByRole('heading', { name: heading }).waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await context.close();
    }
  });

  it('sends customers away from /staff and /admin', async () => {
    const { page, context } = await newPage(browser, { baseURL: product.url });
    await loginAs(page, product.url, customer.email, customer.password);
    await page.goto('/admin');
    await page.getByText('Unauthorized').first().waitFor();
    await page.waitForURL((u) => !u.pathname.startsWith('/admin'));
    await context.close();
  });
});
