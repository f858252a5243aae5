import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displaySampleId } from '../../common/domain/samples';
import { addBusinessDays } from '../../common/domain/turnaround';
import { loginAs, newPage, seriousAxeViolations } from '../support/browser';
import { selectTab, shot, startE2E, stopE2E } from '../support/e2e';
import { photoFile, submissionFields, submitSample } from '../support/factories';
import { callOk, loginToken, registerAccount } from '../support/http';
import { E2E_ADMIN, type Product } from '../support/product';

// Quotes and turnaround in the browser (docs/product/quotes.md): staff send a pre-filled quote,
// the customer accepts it and sees the expected date, the admin marks the invoice paid.

let product: Product;
let browser: Browser;
const STAFF = {
  email: 'quote.staff@lab.test',
  password: 'staff-password-1',
  firstName: 'Quinn',
  lastName: 'Pricer',
};
const CUSTOMER = {
  email: 'quote.customer@lab.test',
  password: 'customer-password-1',
  firstName: 'Vera',
  lastName: 'Buyer',
};
let sampleId = 0;
let unquotedId = 0;

async function look(page: Page, name: string) {
  expect(await seriousAxeViolations(page)).toEqual([]);
  await shot(page, name);
}
const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first().waitFor();

beforeAll(async () => {
  ({ product, browser } = await startE2E());
  const adminToken = await loginToken(product, E2E_ADMIN.email, E2E_ADMIN.password);
  const staff = await registerAccount(product, STAFF);
  await registerAccount(product, CUSTOMER);
  await callOk(product, 'POST', `/api/admin/users/${staff.id}/role`, {
    token: adminToken,
    json: { role: 'staff' },
  });
  const form = new FormData();
  form.append(
    'settings',
    JSON.stringify({
      labName: 'Harbor Valuation Lab',
      address: '1 Quay Street',
      prices: {
        expertValuation: 120,
        authenticityCheck: 0.1,
        conditionAssessment: 0.2,
        provenanceResearch: 200,
      },
      urgentSurchargePercent: 50,
      currency: 'EUR',
    }),
  );
  await callOk(product, 'POST', '/api/lab/settings', { token: adminToken, form });
  const customerToken = await loginToken(product, CUSTOMER.email, CUSTOMER.password);
  sampleId = await submitSample(
    product,
    customerToken,
    submissionFields({
      submitterName: 'Vera Buyer',
      submitterEmail: CUSTOMER.email,
      itemName: 'Regency Tea Caddy',
      expertValuation: 'false',
      authenticityCheck: 'true',
      conditionAssessment: 'true',
    }),
    [photoFile('caddy.jpg')],
  );
  unquotedId = await submitSample(
    product,
    customerToken,
    submissionFields({
      submitterName: 'Vera Buyer',
      submitterEmail: CUSTOMER.email,
      itemName: 'Pocket Barometer',
    }),
    [photoFile('barometer.jpg')],
  );
  await callOk(product, 'POST', `/api/admin/samples/${sampleId}/assign`, {
    token: adminToken,
    json: { staffId: staff.id },
  });
});
afterAll(() => stopE2E({ product, browser }));

describe('quotes and turnaround', () => {
  it('staff send a pre-filled quote; the customer accepts; the expected date shows; the answer is mailed; the admin marks it paid', async () => {
    // Staff: Send Quote, pre-filled from the price list with the sample's services and the urgent
    // surcharge (the factory's sample is urgent): 0.10 + 0.20 + 50% = exactly 0.45.
    const s = await newPage(browser, { baseURL: product.url, width: 1366 });
    await loginAs(s.page, product.url, STAFF.email, STAFF.password);
    // From the work list's row (the sample page offers the same dialog).
    const id = displaySampleId(sampleId);
    await s.page.goto('/staff');
    await s.page.getByRole('button', { name: `Send Quote for ${id}` }).click();
    const dialog = s.page.getByRole('dialog', { name: 'Send Quote' });
    await expect(dialog.getByLabel('Line 1', { exact: true }).inputValue()).resolves.toBe(
      'Authenticity Check',
    );
    await expect(dialog.getByLabel('Line 2', { exact: true }).inputValue()).resolves.toBe(
      'Condition Assessment',
    );
    await expect(dialog.getByTestId('quote-total').textContent()).resolves.toBe('Total: €0.45');
    await dialog.getByLabel('Note to the customer (optional)').fill('Return shipping included.');
    await look(s.page, 'send-quote-1366');
    await dialog.getByRole('button', { name: 'Send Quote' }).click();
    await toast(s.page, 'Quote sent');
    // The row now offers to replace the waiting quote; the sample page shows it with Withdraw.
    await s.page.getByRole('button', { name: `Replace Quote for ${id}` }).waitFor();
    await s.page.goto(`/sample/${sampleId}`);
    await s.page.getByRole('button', { name: 'Withdraw Quote' }).waitFor();
    await s.page.getByRole('button', { name: 'Replace Quote' }).waitFor();
    await s.context.close();

    // Customer: dashboard says a quote waits; the sample page accepts it.
    const c = await newPage(browser, { baseURL: product.url, width: 375, height: 800 });
    await loginAs(c.page, product.url, CUSTOMER.email, CUSTOMER.password);
    await c.page.goto('/dashboard');
    await c.page.getByText('Quote awaiting your answer').first().waitFor();
    await look(c.page, 'dashboard-quote-375');
    await c.page.goto(`/sample/${sampleId}`);
    await c.page.getByRole('button', { name: 'Accept Quote' }).waitFor();
    await look(c.page, 'sample-quote-375');
    await c.page.getByRole('button', { name: 'Accept Quote' }).click();
    await toast(c.page, 'Quote accepted');
    // Urgent: five business days from today's acceptance.
    const expected = addBusinessDays(new Date(), 5);
    const shown = new Date(`${expected}T00:00:00Z`).toLocaleDateString('en-US', {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      timeZone: 'UTC',
    });
    await c.page.getByTestId('expected-date').filter({ hasText: shown }).waitFor();
    await c.page.goto('/dashboard');
    await c.page.getByText(shown).first().waitFor();
    await c.context.close();

    // Admin: marks the invoice paid; the customer then sees "Paid".
    const a = await newPage(browser, { baseURL: product.url, width: 1366 });
    await loginAs(a.page, product.url, E2E_ADMIN.email, E2E_ADMIN.password);
    await a.page.goto('/admin');
    await a.page.getByText('Overdue', { exact: true }).waitFor();
    // The staff member who sent the quote is mailed the answer; with no mail server it waits in the Outbox.
    await selectTab(a.page, 'Outbox');
    await a.page
      .locator('tr', { hasText: STAFF.email })
      .filter({ hasText: `Quote accepted: ${id}` })
      .getByText('pending', { exact: true })
      .waitFor();
    // The Samples tab offers quotes too, but none once the customer has accepted.
    await selectTab(a.page, 'Samples');
    await a.page.getByRole('button', { name: `Send Quote for ${displaySampleId(unquotedId)}` }).waitFor();
    const caddy = a.page.getByRole('row', { name: /Regency Tea Caddy/ });
    expect(await caddy.getByRole('button', { name: /Quote for / }).count()).toBe(0);
    await a.page.goto(`/sample/${sampleId}`);
    await a.page.getByText('Payment due').waitFor();
    await a.page.getByLabel('Payment reference received').fill('BANK-77');
    await a.page.getByRole('button', { name: 'Mark Paid' }).click();
    await toast(a.page, 'Invoice marked paid');
    await look(a.page, 'sample-paid-1366');
    await a.context.close();

    const c2 = await newPage(browser, { baseURL: product.url, width: 1366 });
    await loginAs(c2.page, product.url, CUSTOMER.email, CUSTOMER.password);
    await c2.page.goto(`/sample/${sampleId}`);
    await c2.page.getByText('Paid', { exact: true }).waitFor();
    await look(c2.page, 'sample-paid-customer-1366');
    await c2.context.close();
  });
});
