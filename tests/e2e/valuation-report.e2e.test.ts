import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShareLink } from '../../common/contracts/share-links';
import { loginAs, newPage, seriousAxeViolations } from '../support/browser';
import { shotBothWidths, startE2E, stopE2E, visible } from '../support/e2e';
import { assignedSampleOverHttp, photoFile, valuationReport } from '../support/factories';
import { callOk, loginToken } from '../support/http';
import { E2E_ADMIN, type Product } from '../support/product';

// The customer's side of the valuation report (docs/product/valuation-report.md): the sample page
// states what the PDF states, the owner shares the value through a link, and sees who looked.

/** The photos the report shows, in its order. */
let reportPhotoIds: number[] = [];
let product: Product;
let browser: Browser;
const STAFF = { email: 'vera.e2e@lab.test', password: 'staff-password-1' };
const CUSTOMER = { email: 'hugo.e2e@lab.test', password: 'customer-password-1' };
const ITEM = 'Suffolk Landscape in Oils';
const VALUE = '£12,000.00 – £18,000.00';
let sampleId = 0;
let reportCode = '';
let customerToken = '';

beforeAll(async () => {
  ({ product, browser } = await startE2E());
  ({ sampleId, customerToken } = await assignedSampleOverHttp(product, {
    admin: E2E_ADMIN,
    staff: { ...STAFF, firstName: 'Vera', lastName: 'Lindqvist' },
    customer: { ...CUSTOMER, firstName: 'Hugo', lastName: 'Marsh' },
    itemName: ITEM,
    photos: [photoFile('front.jpg'), photoFile('signature.jpg')],
  }));
  const detail = await callOk<{ files: { id: number; fileCategory: string }[] }>(
    product,
    'GET',
    `/api/samples/${sampleId}`,
    { token: customerToken },
  );
  const photoIds = detail.files.filter((f) => f.fileCategory === 'photo').map((f) => f.id);
  const staffToken = await loginToken(product, STAFF.email, STAFF.password);
  // Second photo first: the page must follow the report's order.
  reportPhotoIds = [...photoIds].reverse();
  const issued = await callOk<{ reportCode: string }>(
    product,
    'POST',
    `/api/staff/samples/${sampleId}/report`,
    {
      token: staffToken,
      json: valuationReport(reportPhotoIds),
    },
  );
  reportCode = issued.reportCode;
}, 120_000);

afterAll(() => stopE2E({ product, browser }));

describe('the valuation report on the customer side', () => {
  let shareUrl = '';

  it('the owner reads the verdict, grade, value and identification on the sample page', async () => {
    const { page, context } = await newPage(browser, { baseURL: product.url });
    await loginAs(page, product.url, CUSTOMER.email, CUSTOMER.password);
    await page.goto(`/sample/${sampleId}`);
    const card = page.getByRole('region', { name: 'What the report states' });
    await card.getByText(VALUE).waitFor();
    await card.getByText('Authentic', { exact: true }).waitFor();
    await card.getByText('Very good', { exact: true }).waitFor();
    await card.getByText('Insurance replacement value in GBP, as at 14 March 2026.').waitFor();
    await card.getByText('John Constable (attributed)').waitFor();
    await card.getByText('Signature and canvas consistent with the period.').waitFor();
    await card.getByText('A landscape in good order, consistent with the attribution.').waitFor();
    // Photos in the report's order, captioned as on the PDF.
    const captions = await card.getByText(/^Photo \d: /).allTextContents();
    expect(captions).toEqual(['Photo 1: signature.jpg', 'Photo 2: front.jpg']);
    // No tags leak from the rich text.
    expect(await card.textContent()).not.toContain('<p>');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shotBothWidths(page, 'valuation-sample');
    await context.close();
  });

  it('creates a share link with an expiry, copies it (with a confirmation) and it is listed', async () => {
    const { page, context } = await newPage(browser, { baseURL: product.url });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: product.url });
    await loginAs(page, product.url, CUSTOMER.email, CUSTOMER.password);
    await page.goto(`/sample/${sampleId}`);
    const section = page.getByRole('region', { name: 'Share links' });
    await section.getByText('No share links yet.').waitFor();
    await section.getByLabel('For whom (optional)').fill('Insurer');
    await section.getByRole('button', { name: 'Create share link' }).click();
    // The new link is shown once, to copy now; the list then names it by its last characters only.
    const made = section.getByRole('status').filter({ hasText: 'Your new share link' });
    await made.getByRole('button', { name: 'Copy link for Insurer' }).click();
    await made.getByText('Copied').waitFor();
    shareUrl = await page.evaluate(() => navigator.clipboard.readText());
    expect(shareUrl).toBe((await made.getByTestId('new-share-link').innerText()).trim());
    expect(shareUrl).toContain(`/verify-report?code=${reportCode}&share=`);
    const row = section.getByTestId('share-link-row').filter({ hasText: 'Insurer' });
    await row.getByText('Active').waitFor();
    await row.getByText(`…${shareUrl.slice(-4)}`).waitFor();
    expect(await row.getByRole('button', { name: 'Copy link for Insurer' }).count()).toBe(0);
    const links = await callOk<ShareLink[]>(product, 'GET', `/api/samples/${sampleId}/share-links`, {
      token: customerToken,
    });
    expect(links).toHaveLength(1);
    expect(links[0]).toMatchObject({ url: null, token: null, hint: shareUrl.slice(-4) });
    // 30 days is the default choice.
    const days = (Date.parse(links[0]?.expiresAt ?? '') - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29);
    expect(days).toBeLessThanOrEqual(30);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await context.close();
  });

  it('the link shows the value in a fresh browser; the plain code does not', async () => {
    const link = new URL(shareUrl);
    const shared = await newPage(browser, { baseURL: product.url });
    await shared.page.goto(`${link.pathname}${link.search}`);
    await visible(shared.page, 'Valuation (shared by the owner)', 30_000);
    await visible(shared.page, VALUE);
    await shared.context.close();

    const visitor = await newPage(browser, { baseURL: product.url });
    await visitor.page.goto(`/verify-report?code=${encodeURIComponent(reportCode)}`);
    await visible(visitor.page, 'Authentic Report Verified', 30_000);
    await visible(visitor.page, 'Very good');
    expect(await visitor.page.getByText('Valuation (shared by the owner)').count()).toBe(0);
    expect(await visitor.page.getByText(VALUE).count()).toBe(0);
    // The report's two photos, in its order, load without a token (decoded images, not broken links).
    const photos = visitor.page.getByRole('img', { name: /^Photo \d of the report on / });
    await expect
      .poll(
        () =>
          photos.evaluateAll((imgs) =>
            imgs.map(
              (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0,
            ),
          ),
        { timeout: 30_000 },
      )
      .toEqual([true, true]);
    expect(
      await photos.evaluateAll((imgs) => imgs.map((img) => new URL((img as HTMLImageElement).src).pathname)),
    ).toEqual(reportPhotoIds.map((id) => `/api/public/reports/${reportCode}/photos/${id}`));
    await visitor.context.close();
  });

  it("the owner's log lists the lookup through the link, newest first; revoking asks first", async () => {
    const { page, context } = await newPage(browser, { baseURL: product.url });
    await loginAs(page, product.url, CUSTOMER.email, CUSTOMER.password);
    await page.goto(`/sample/${sampleId}`);
    const log = page.getByRole('region', { name: 'Who looked at my report' });
    const rows = log.getByTestId('verification-row');
    // Lookups are written in small batches: reload until both are there.
    await expect
      .poll(
        async () => {
          await page.reload();
          await log.waitFor();
          return rows.count();
        },
        { timeout: 20_000, interval: 1_000 },
      )
      .toBeGreaterThanOrEqual(2);
    // Newest first: the plain-code visitor came after the link.
    await expect.poll(() => rows.nth(0).textContent()).toContain('Report code');
    expect(await rows.nth(1).textContent()).toContain('Share link: Insurer');

    const section = page.getByRole('region', { name: 'Share links' });
    await section.getByRole('button', { name: 'Revoke link for Insurer' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke share link' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await section.getByText('Active').waitFor();
    await section.getByRole('button', { name: 'Revoke link for Insurer' }).click();
    await dialog.getByRole('button', { name: 'Revoke link' }).click();
    await section.getByText('Revoked', { exact: true }).waitFor();
    await context.close();

    const after = await newPage(browser, { baseURL: product.url });
    const link = new URL(shareUrl);
    await after.page.goto(`${link.pathname}${link.search}`);
    await visible(after.page, 'Authentic Report Verified', 30_000);
    expect(await after.page.getByText(VALUE).count()).toBe(0);
    await after.context.close();
  });
});
