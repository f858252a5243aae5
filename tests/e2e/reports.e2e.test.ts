import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAs, newPage, seriousAxeViolations } from '../support/browser';
import { shot, startE2E, stopE2E, takingShots } from '../support/e2e';
import { submissionFields, submitSample } from '../support/factories';
import { callOk, loginToken, registerAccount } from '../support/http';
import { E2E_ADMIN, type Product } from '../support/product';

// The report journey: staff analyse and issue, the customer downloads, a visitor verifies.

let product: Product;
let browser: Browser;
const STAFF = { email: 'eleanor.e2e@lab.test', password: 'staff-password-1' };
const CUSTOMER = { email: 'olivia.e2e@lab.test', password: 'customer-password-1' };
const ITEM = 'Victorian Silver Tea Service';
let sampleId = 0;
let reportCode = '';
let staffDownload: Buffer;

async function saveDownload(
  page: Page,
  click: () => Promise<void>,
): Promise<{ name: string; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), click()]);
  const file = join(tmpdir(), `rep-e2e-${Date.now()}-${download.suggestedFilename()}`);
  await download.saveAs(file);
  return { name: download.suggestedFilename(), bytes: readFileSync(file) };
}

beforeAll(async () => {
  ({ product, browser } = await startE2E());
  const adminToken = await loginToken(product, E2E_ADMIN.email, E2E_ADMIN.password);
  const staff = await registerAccount(product, { ...STAFF, firstName: 'Eleanor', lastName: 'Whitfield' });
  await registerAccount(product, { ...CUSTOMER, firstName: 'Olivia', lastName: 'Bennett' });
  await callOk(product, 'POST', `/api/admin/users/${staff.id}/role`, {
    token: adminToken,
    json: { role: 'staff' },
  });
  const customerToken = await loginToken(product, CUSTOMER.email, CUSTOMER.password);
  sampleId = await submitSample(
    product,
    customerToken,
    submissionFields({
      submitterName: 'Olivia Bennett',
      submitterEmail: CUSTOMER.email,
      itemName: ITEM,
      description: 'Four-piece sterling tea service with engraved crest.',
    }),
  );
  await callOk(product, 'POST', `/api/admin/samples/${sampleId}/assign`, {
    token: adminToken,
    json: { staffId: staff.id },
  });
}, 120_000);

afterAll(() => stopE2E({ product, browser }));

describe('issuing and verifying a report', () => {
  it('staff add elements (refusing a duplicate and a total over 100), generate, and a download happens', async () => {
    const { page, context } = await newPage(browser, { baseURL: product.url });
    await loginAs(page, product.url, STAFF.email, STAFF.password);
    await page.goto('/staff');
    await page
      .getByRole('button', { name: /Generate Report for VAL-/ })
      .first()
      .click();
    const dialog = page.getByRole('dialog', { name: 'Generate Analysis Report' });
    await dialog.getByText(ITEM).first().waitFor();

    const addElement = async (name: string, percentage: string) => {
      await dialog.getByLabel('Element Name').fill(name);
      await dialog.getByLabel('Percentage').fill(percentage);
      await dialog.getByRole('button', { name: 'Add Element' }).click();
    };
    await dialog.getByRole('button', { name: 'Add Element' }).click();
    await dialog.getByText('Please fill in element name and valid percentage').first().waitFor();

    await addElement('Silver', '92.5');
    await dialog.getByLabel('Purity').fill('925 sterling');
    await addElement('Copper', '7');
    await dialog.getByRole('cell', { name: 'Copper', exact: true }).waitFor();

    await addElement('silver', '0.5');
    await dialog.getByText('Element "silver" already exists in the report').first().waitFor();

    await addElement('Zinc', '0.6');
    await dialog.getByText('Total percentage of elements cannot exceed 100%').first().waitFor();

    // Notes with formatting from the toolbar.
    await dialog.getByLabel('Element Name').fill('Zinc');
    await dialog.getByLabel('Percentage').fill('0.5');
    // The element's own editor: the report's long texts have editors of their own.
    const notesEditor = dialog.getByRole('group', { name: 'Notes', exact: true });
    await notesEditor.getByRole('textbox').click();
    await notesEditor.getByRole('button', { name: 'Bold' }).click();
    await page.keyboard.type('Trace only');
    await dialog.getByRole('button', { name: 'Add Element' }).click();
    await dialog.getByRole('cell', { name: 'Zinc', exact: true }).waitFor();
    expect(await dialog.getByText('Total: 100.00%').isVisible()).toBe(true);

    await shot(page, 'rep-dialog');
    expect(await seriousAxeViolations(page)).toEqual([]);

    const { name, bytes } = await saveDownload(page, () =>
      dialog.getByRole('button', { name: 'Generate PDF Report' }).click(),
    );
    expect(name).toMatch(/^Report-[A-Z2-9]{8}\.pdf$/);
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('%PDF');
    reportCode = name.slice('Report-'.length, -'.pdf'.length);
    staffDownload = bytes;
    await page.getByText('Report generated successfully', { exact: false }).first().waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await context.close();
  });

  it('the customer downloads the same bytes from the dashboard once the sample is completed', async () => {
    const staffToken = await loginToken(product, STAFF.email, STAFF.password);
    await callOk(product, 'POST', `/api/staff/samples/${sampleId}/status`, {
      token: staffToken,
      json: { status: 'completed', comment: '' },
    });
    const { page, context } = await newPage(browser, { baseURL: product.url });
    await loginAs(page, product.url, CUSTOMER.email, CUSTOMER.password);
    await page.goto('/dashboard');
    const { name, bytes } = await saveDownload(page, () =>
      page.getByRole('button', { name: `PDF report for ${ITEM}` }).click(),
    );
    expect(name).toBe(`Report-${reportCode}.pdf`);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(
      createHash('sha256').update(staffDownload).digest('hex'),
    );
    await context.close();
  });

  it('a visitor verifies by typing the code in lower case, and by ?code=', async () => {
    const { page, context } = await newPage(browser, { baseURL: product.url });
    await page.goto('/verify-report');
    const button = page.getByRole('button', { name: 'Verify Report' });
    expect(await button.isDisabled()).toBe(true);
    const input = page.getByLabel('Verification Code');
    await input.fill(reportCode.toLowerCase());
    expect(await input.inputValue()).toBe(reportCode);
    await button.click();
    await page.getByRole('heading', { name: 'Authentic Report Verified' }).waitFor();
    // The analysis table's code is fetched beside the verification: it may follow the heading.
    await page.getByRole('cell', { name: 'Silver', exact: true }).waitFor({ timeout: 10_000 });
    expect(await page.getByText('Eleanor Whitfield').isVisible()).toBe(true);
    await shot(page, 'rep-verify-e2e');
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.goto(`/verify-report?code=${reportCode}`);
    await page.getByRole('heading', { name: 'Authentic Report Verified' }).waitFor();
    expect(await page.getByText(ITEM).first().isVisible()).toBe(true);

    await page.goto('/verify-report?code=ZZZZZZZZ');
    await page
      .getByText('Report not found. Please check your verification code and try again.')
      .first()
      .waitFor();
    await context.close();
  });

  it('a visitor uploads the PDF: the genuine copy is current, an altered copy is refused', async () => {
    const { page, context } = await newPage(browser, { baseURL: product.url });
    await page.goto(`/verify-report?code=${reportCode}`);
    await page.getByRole('heading', { name: 'Authentic Report Verified' }).waitFor();
    const genuine = join(tmpdir(), `Report-${reportCode}.pdf`);
    writeFileSync(genuine, staffDownload);
    await page.locator('input[type="file"]').setInputFiles(genuine);
    await page.getByRole('button', { name: 'Check Document' }).click();
    await page.getByText('Current document').waitFor();

    const altered = Buffer.from(staffDownload);
    const at = altered.indexOf('/Title');
    altered.writeUInt8(altered.readUInt8(at + 8) ^ 1, at + 8);
    const alteredPath = join(tmpdir(), `Report-${reportCode}-altered.pdf`);
    writeFileSync(alteredPath, altered);
    await page.locator('input[type="file"]').setInputFiles(alteredPath);
    await page.getByRole('button', { name: 'Check Document' }).click();
    await page.getByText('Not issued by us').waitFor();
    await context.close();
  });

  it('the customer downloads the credential on the sample page; pasted on /verify-report it is current', async () => {
    const { page, context } = await newPage(browser, { baseURL: product.url });
    await loginAs(page, product.url, CUSTOMER.email, CUSTOMER.password);
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto(`/sample/${sampleId}`);
    await page.getByRole('link', { name: 'Download Credential' }).waitFor();
    await shot(page, 'rep-credential-sample-e2e', { fullPage: false });
    const { name, bytes } = await saveDownload(page, () =>
      page.getByRole('link', { name: 'Download Credential' }).click(),
    );
    expect(name).toBe(`Report-${reportCode}-r1.jwt`);
    const credential = bytes.toString('utf8');
    expect(credential).toMatch(/^eyJ[\w-]+\.[\w-]+\.[\w-]+$/);

    await page.goto('/verify-report');
    await page.getByRole('textbox', { name: 'Credential' }).fill(credential);
    await page.getByRole('button', { name: 'Check Credential' }).click();
    const answer = page.getByRole('status').filter({ hasText: 'Genuine credential: current' });
    await answer.waitFor();
    expect(await answer.textContent()).toContain(`revision 1 of report ${reportCode}, the current revision`);
    expect(await page.getByRole('link', { name: 'laboratory root certificate' }).getAttribute('href')).toBe(
      '/.well-known/lab-root-ca.pem',
    );
    expect(await seriousAxeViolations(page)).toEqual([]);

    // A changed credential is not genuine.
    const [h, p, sig] = credential.split('.');
    const claims = JSON.parse(Buffer.from(p ?? '', 'base64url').toString()) as {
      credentialSubject: { item: string };
    };
    claims.credentialSubject.item = 'Something else';
    await page
      .getByRole('textbox', { name: 'Credential' })
      .fill([h, Buffer.from(JSON.stringify(claims)).toString('base64url'), sig].join('.'));
    await page.getByRole('button', { name: 'Check Credential' }).click();
    await page.getByRole('alert').filter({ hasText: 'Not a genuine credential' }).waitFor();
    await shot(page, 'rep-credential-e2e');
    if (takingShots()) {
      await page.setViewportSize({ width: 375, height: 800 });
      await shot(page, 'rep-credential-e2e-375');
    }
    await context.close();
  });

  it('an admin revokes the report and the verify page says so plainly', async () => {
    const adminToken = await loginToken(product, E2E_ADMIN.email, E2E_ADMIN.password);
    await callOk(product, 'POST', `/api/admin/reports/${reportCode}/revoke`, {
      token: adminToken,
      json: { reason: 'Hallmark misread' },
    });
    const { page, context } = await newPage(browser, { baseURL: product.url });
    await page.goto(`/verify-report?code=${reportCode}`);
    await page.getByRole('heading', { name: 'Report Revoked' }).waitFor();
    expect(await page.getByText('Hallmark misread').isVisible()).toBe(true);
    expect(await page.getByText('Authentic Report Verified').count()).toBe(0);
    await context.close();
  });
});
