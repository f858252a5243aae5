import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPRAISAL_MESSAGES } from '../../common/contracts/appraisal';
import { VALUATION_MESSAGES } from '../../common/contracts/reports';
import type { SampleDetail } from '../../common/contracts/samples';
import { displaySampleId } from '../../common/domain/samples';
import { loginAs, newPage, seriousAxeViolations } from '../support/browser';
import { shot, startE2E, stopE2E } from '../support/e2e';
import { assignedSampleOverHttp, photoFile, SUBMISSION_FIELDS } from '../support/factories';
import { callOk, loginToken } from '../support/http';
import { E2E_ADMIN, type Product } from '../support/product';

// The staff side of the valuation report (docs/product/valuation-report.md, "The editor"): an expert
// fills every section of the 'Generate Analysis Report' dialog with keyboard and mouse, picks and
// orders photos (drag, buttons, arrow keys), meets the checks, issues; the customer then reads the
// verdict on the sample page, photos in the issued order.

let product: Product;
let browser: Browser;
const STAFF = { email: 'iris.e2e@lab.test', password: 'staff-password-1' };
const CUSTOMER = { email: 'tom.e2e@lab.test', password: 'customer-password-1' };
const ITEM = 'Bracket Clock by Tompion';
const PHOTOS = ['p1.jpg', 'p2.jpg', 'p3.jpg', 'p4.jpg', 'p5.jpg', 'p6.jpg', 'p7.jpg'];
/** The photos' order once the journey has dragged, pressed Move down and used the arrow keys. */
const ISSUED_ORDER = ['p3.jpg', 'p2.jpg', 'p4.jpg', 'p1.jpg', 'p5.jpg', 'p7.jpg'];
let sampleId = 0;
let customerToken = '';

beforeAll(async () => {
  ({ product, browser } = await startE2E());
  ({ sampleId, customerToken } = await assignedSampleOverHttp(product, {
    admin: E2E_ADMIN,
    staff: { ...STAFF, firstName: 'Iris', lastName: 'Quarles' },
    customer: { ...CUSTOMER, firstName: 'Tom', lastName: 'Ward' },
    itemName: ITEM,
    photos: PHOTOS.map((name) => photoFile(name)),
  }));
}, 120_000);

afterAll(() => stopE2E({ product, browser }));

const openDialog = async (page: Page) => {
  await page.goto('/staff');
  await page.getByRole('button', { name: `Generate Report for ${displaySampleId(sampleId)}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Generate Analysis Report' });
  await dialog.getByLabel('Maker').waitFor();
  return dialog;
};

/** The rich-text editor labelled `name` (each has its own toolbar). */
const richText = (dialog: Locator, name: string) =>
  dialog.getByRole('group', { name, exact: true }).getByRole('textbox');

const generate = (dialog: Locator) => dialog.getByRole('button', { name: 'Generate PDF Report' }).click();

const chosenOrder = (dialog: Locator) =>
  dialog
    .getByRole('list', { name: 'Photos on the report, in order' })
    .getByText(/^Photo \d: /)
    .allTextContents();

async function expectNoSeriousAxe(page: Page) {
  expect(
    (await seriousAxeViolations(page)).map(
      (v) => `${v.id}: ${v.help} ${JSON.stringify(v.nodes.map((n) => n.target))}`,
    ),
  ).toEqual([]);
}

describe('the valuation report editor', () => {
  // The longest journey of the suite (every section, six photos, three reorders, three refusals): it
  // took 57 s of the default 60 s in a clean CI run, so it gets its own budget.
  it('staff fill every section with keyboard and mouse, meet the checks, order photos and issue', async () => {
    const { page, context } = await newPage(browser, { baseURL: product.url, width: 1366, height: 900 });
    await loginAs(page, product.url, STAFF.email, STAFF.password);
    const dialog = await openDialog(page);

    // A first report starts from the submission: its estimated age, dimensions and materials; the
    // currency is the lab's.
    expect(await dialog.getByLabel('Period').inputValue()).toBe(SUBMISSION_FIELDS.estimatedAge);
    expect(await dialog.getByLabel('Dimensions').inputValue()).toBe(SUBMISSION_FIELDS.dimensions);
    expect(await dialog.getByLabel('Materials').inputValue()).toBe(SUBMISSION_FIELDS.materials);
    expect(await dialog.getByLabel('Currency').inputValue()).toMatch(/^(EUR|USD|GBP)/);

    // Identification by keyboard: type, Tab to the next field (select what is there, then type).
    await dialog.getByLabel('Maker').click();
    await page.keyboard.type('Thomas Tompion');
    for (const text of ['c. 1690', 'London, England', 'Signed "Tho. Tompion Londini Fecit"']) {
      await page.keyboard.press('Tab');
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.type(text);
    }
    // Dimensions typed, then a click right away on a verdict: the press must not be lost.
    await dialog.getByLabel('Dimensions').fill('47 × 30 × 18 cm');
    await dialog.getByRole('radio', { name: 'Authentic', exact: true }).click();
    expect(
      await dialog.getByRole('radio', { name: 'Authentic', exact: true }).getAttribute('aria-checked'),
    ).toBe('true');
    await dialog.getByLabel('Materials').fill('Ebonised oak, brass, steel');

    await richText(dialog, 'Rationale').click();
    await page.keyboard.type('Movement, dial and case belong together; signature consistent.');
    // The grade by keyboard: focus the card, press Space.
    await dialog.getByRole('radio', { name: 'Very good', exact: true }).focus();
    await page.keyboard.press('Space');
    await richText(dialog, 'Condition notes').click();
    await page.keyboard.type('Original verge escapement; light wear to the gilding.');

    // Valuation: currency by search and Enter, value type by mouse, a range the wrong way round
    // and a date in the future first.
    await dialog.getByLabel('Currency').click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('GBP');
    await page.getByRole('option', { name: 'GBP', exact: true }).click();
    await dialog.getByLabel('Value type').click();
    await page.getByRole('option', { name: 'Insurance replacement value' }).click();
    await dialog.getByLabel('Low value (GBP)').fill('180000');
    await dialog.getByLabel('High value (GBP)').fill('120000');
    await dialog.getByLabel('Effective date').fill('2999-01-01');
    await richText(dialog, 'Basis of valuation').click();
    await page.keyboard.type('Recent auction results for signed Tompion bracket clocks.');
    await richText(dialog, 'Summary').click();
    await page.keyboard.type('A fine and authentic Tompion bracket clock.');

    // Photos by thumbnail: six chosen, the seventh refused.
    for (const name of PHOTOS.slice(0, 6)) await dialog.getByRole('button', { name: `Add ${name}` }).click();
    await dialog.getByRole('button', { name: 'Add p7.jpg' }).click();
    await dialog.getByRole('alert').filter({ hasText: VALUATION_MESSAGES.tooManyPhotos }).waitFor();
    expect(await chosenOrder(dialog)).toHaveLength(6);
    // Taking one off makes room again.
    await dialog.getByRole('button', { name: 'Take p6.jpg off the report' }).click();
    await dialog.getByRole('button', { name: 'Add p7.jpg' }).click();
    expect(await chosenOrder(dialog)).toEqual([
      'Photo 1: p1.jpg',
      'Photo 2: p2.jpg',
      'Photo 3: p3.jpg',
      'Photo 4: p4.jpg',
      'Photo 5: p5.jpg',
      'Photo 6: p7.jpg',
    ]);
    // Drag once: p3 onto the first place.
    const rows = dialog.getByTestId('report-photo');
    await rows.filter({ hasText: 'p3.jpg' }).dragTo(rows.first());
    expect((await chosenOrder(dialog)).slice(0, 3)).toEqual([
      'Photo 1: p3.jpg',
      'Photo 2: p1.jpg',
      'Photo 3: p2.jpg',
    ]);
    // Keyboard once: p1 down a place, announced, the focus stays on the button.
    await dialog.getByRole('button', { name: 'Move p1.jpg down' }).focus();
    await page.keyboard.press('Enter');
    await dialog.getByRole('status').filter({ hasText: 'p1.jpg moved to position 3 of 6.' }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Move p1.jpg down',
    );
    expect((await chosenOrder(dialog)).slice(0, 3)).toEqual([
      'Photo 1: p3.jpg',
      'Photo 2: p2.jpg',
      'Photo 3: p1.jpg',
    ]);
    // Arrow keys on a focused chosen photo: p4 up a place (announced, the focus stays on its row),
    // then a key with a modifier, which is the browser's and moves nothing.
    await dialog.getByTestId('report-photo').filter({ hasText: 'p4.jpg' }).focus();
    await page.keyboard.press('ArrowUp');
    await dialog.getByRole('status').filter({ hasText: 'p4.jpg moved to position 3 of 6.' }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Photo 3: p4.jpg',
    );
    await page.keyboard.press('Alt+ArrowUp');
    expect(await chosenOrder(dialog)).toEqual(ISSUED_ORDER.map((name, i) => `Photo ${i + 1}: ${name}`));
    expect(await dialog.getByTestId('report-photo').first().getAttribute('aria-description')).toContain(
      'Arrow Up and Arrow Down move it one place',
    );

    // The checks, beside their fields, nothing issued.
    await generate(dialog);
    await dialog.getByText(VALUATION_MESSAGES.lowAboveHigh).waitFor();
    await dialog.getByText(VALUATION_MESSAGES.futureDate).waitFor();
    expect(await dialog.getByLabel('Low value (GBP)').getAttribute('aria-invalid')).toBe('true');
    expect(await dialog.getByLabel('Effective date').getAttribute('aria-invalid')).toBe('true');
    await dialog.getByLabel('Low value (GBP)').fill('120000');
    await dialog.getByLabel('High value (GBP)').fill('180000');
    await dialog.getByLabel('Effective date').fill('2026-03-14');
    // Corrected fields lose their messages at once.
    expect(await dialog.getByLabel('Low value (GBP)').getAttribute('aria-invalid')).not.toBe('true');
    expect(await dialog.getByText(VALUATION_MESSAGES.futureDate).count()).toBe(0);
    await dialog.getByTestId('valuation-preview').getByText('£120,000.00 – £180,000.00').waitFor();

    // The appraisal (docs/product/appraisal-report.md): a value needs its assignment. The intended use
    // starts from the client's purpose, the limiting conditions from the lab's template; the first
    // Generate named what was missing.
    await dialog.getByText(APPRAISAL_MESSAGES.intendedUsers).waitFor();
    expect(await dialog.getByLabel('Intended use', { exact: true }).inputValue()).toBe('Insurance: ');
    expect(await richText(dialog, 'Limiting conditions').textContent()).toContain('intended use');
    await dialog
      .getByLabel('Intended use', { exact: true })
      .fill('Insurance: to set the sum insured under the owner’s policy.');
    await dialog.getByLabel('Intended users').click();
    await page.keyboard.type('The client and their insurer');
    await richText(dialog, 'Definition of value, with its source').click();
    await page.keyboard.type(
      'Insurance replacement value: the cost of a similar clock from a specialist dealer.',
    );
    await dialog.getByLabel('Inspection', { exact: true }).click();
    await page.getByRole('option', { name: 'In person, with laboratory examination' }).click();
    await dialog.getByLabel('Inspection date').fill('2026-03-10');
    await richText(dialog, 'Scope of work').click();
    await page.keyboard.type('Examined the movement; searched auction records since 2020.');
    // Two comparable sales; the first with a price of 0, refused beside its field.
    await dialog.getByRole('button', { name: 'Add comparable sale' }).click();
    const sale = dialog.getByRole('group', { name: 'Comparable sale 1' });
    await sale.getByLabel('Description').fill('Tompion bracket clock no. 222, ebony');
    await sale.getByLabel('Source').fill('Bonhams, London');
    await sale.getByLabel('Sale date').fill('2025-06-11');
    // The sale's currency starts as the value's.
    await sale.getByLabel('Price (GBP)').fill('0');
    await sale.getByRole('button', { name: 'Save comparable' }).click();
    await sale.getByText(APPRAISAL_MESSAGES.pricePositive).waitFor();
    await sale.getByLabel('Price (GBP)').fill('150000');
    await sale.getByLabel('Price (GBP)').press('Tab');
    await page.keyboard.type('https://auctions.example.com/lot/222');
    await sale.getByRole('button', { name: 'Save comparable' }).click();
    await dialog.getByRole('button', { name: 'Add comparable sale' }).click();
    const second = dialog.getByRole('group', { name: 'Comparable sale 2' });
    await second.getByLabel('Description').fill('Tompion and Graham bracket clock');
    await second.getByLabel('Source').fill('Christie’s, New York');
    await second.getByLabel('Sale date').fill('2024-12-03');
    await second.getByLabel('Sale currency').click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('USD');
    await page.getByRole('option', { name: 'USD', exact: true }).click();
    await second.getByLabel('Price (USD)').fill('212500');
    await second.getByRole('button', { name: 'Save comparable' }).click();
    const table = dialog.getByRole('table', { name: 'Comparable sales' });
    await table.getByText('US$212,500.00').waitFor();
    // Sorted by price, highest first, by keyboard.
    await table.getByRole('button', { name: 'Price' }).focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    expect(await table.locator('tbody tr td:nth-child(4)').allTextContents()).toEqual([
      'US$212,500.00',
      '£150,000.00',
    ]);

    await expectNoSeriousAxe(page);
    await shot(page, 'valuation-editor-1366', { fullPage: false });
    await page.setViewportSize({ width: 375, height: 800 });
    await dialog.getByLabel('Maker').scrollIntoViewIfNeeded();
    await shot(page, 'valuation-editor-375', { fullPage: false });
    // Full screen at phone width, nothing wider than the screen.
    const box = await dialog.boundingBox();
    expect(box?.width).toBeLessThanOrEqual(375);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expectNoSeriousAxe(page);
    await page.setViewportSize({ width: 1366, height: 900 });

    // No element at all: the verdicts are enough.
    await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), generate(dialog)]);
    await dialog.waitFor({ state: 'hidden' });
    const detail = await callOk<SampleDetail>(product, 'GET', `/api/samples/${sampleId}`, {
      token: customerToken,
    });
    const names = (detail.report?.photoIds ?? []).map(
      (id) => detail.files.find((f) => f.id === id)?.originalName,
    );
    expect(names).toEqual(ISSUED_ORDER);
    expect(detail.report?.valuation).toMatchObject({
      low: 120000,
      high: 180000,
      currency: 'GBP',
      valueType: 'insurance-replacement',
      effectiveDate: '2026-03-14',
    });
    expect(detail.report?.authenticity?.verdict).toBe('authentic');
    expect(detail.report?.condition?.grade).toBe('very-good');
    expect(detail.report?.identification).toMatchObject({
      maker: 'Thomas Tompion',
      period: 'c. 1690',
      marks: 'Signed "Tho. Tompion Londini Fecit"',
    });
    expect(detail.reportElements).toEqual([]);
    expect(detail.report?.assignment).toMatchObject({
      intendedUse: 'Insurance: to set the sum insured under the owner’s policy.',
      intendedUsers: 'The client and their insurer',
      inspection: 'in-person-and-laboratory',
      inspectionDate: '2026-03-10',
    });
    expect(detail.report?.comparables).toMatchObject([
      { price: 212500, currency: 'USD', source: 'Christie’s, New York' },
      { price: 150000, currency: 'GBP', lotUrl: 'https://auctions.example.com/lot/222' },
    ]);
    expect(detail.report?.revalueBy).toBe('2029-03-14');
    await context.close();
  }, 200_000);

  it('the customer reads the verdict, value, identification and photos in the chosen order', async () => {
    const { page, context } = await newPage(browser, { baseURL: product.url });
    await loginAs(page, product.url, CUSTOMER.email, CUSTOMER.password);
    await page.goto(`/sample/${sampleId}`);
    const card = page.getByRole('region', { name: 'What the report states' });
    await card.getByText('£120,000.00 – £180,000.00').waitFor();
    await card.getByText('Authentic', { exact: true }).waitFor();
    await card.getByText('Very good', { exact: true }).waitFor();
    await card.getByText('Insurance replacement value in GBP, as at 14 March 2026.').waitFor();
    await card.getByText('Thomas Tompion').waitFor();
    await card.getByText('A fine and authentic Tompion bracket clock.').waitFor();
    // The appraisal as the PDF states it: assignment and comparables, each price in its own currency.
    await card.getByText('Insurance: to set the sum insured under the owner’s policy.').waitFor();
    await card.getByText('In person, with laboratory examination, 10 March 2026').waitFor();
    const sales = card.getByRole('table', { name: 'Comparable sales' });
    await sales.getByText('US$212,500.00').waitFor();
    await sales.getByText('£150,000.00').waitFor();
    await card.getByText('We recommend having the item valued again by 14 March 2029.').waitFor();
    expect(await card.getByText(/^Photo \d: /).allTextContents()).toEqual(
      ISSUED_ORDER.map((name, i) => `Photo ${i + 1}: ${name}`),
    );
    await context.close();
  });

  it('opening the editor again pre-fills every section; issuing it unchanged asks first', async () => {
    const { page, context } = await newPage(browser, { baseURL: product.url, width: 1366, height: 900 });
    await loginAs(page, product.url, STAFF.email, STAFF.password);
    const dialog = await openDialog(page);
    expect(await dialog.getByLabel('Maker').inputValue()).toBe('Thomas Tompion');
    expect(await dialog.getByLabel('Low value (GBP)').inputValue()).toBe('120000');
    expect(await dialog.getByLabel('Effective date').inputValue()).toBe('2026-03-14');
    expect(
      await dialog.getByRole('radio', { name: 'Very good', exact: true }).getAttribute('aria-checked'),
    ).toBe('true');
    expect(await richText(dialog, 'Summary').textContent()).toBe(
      'A fine and authentic Tompion bracket clock.',
    );
    expect((await chosenOrder(dialog))[0]).toBe('Photo 1: p3.jpg');
    await generate(dialog);
    await dialog.getByText('Nothing has changed').waitFor();
    await dialog.getByRole('button', { name: 'Keep the current report' }).click();
    // A changed grade is a change. A field refused by the server is shown on that field.
    await dialog.getByRole('radio', { name: 'Excellent', exact: true }).click();
    const refusal = "Only this sample's photos can appear on its report";
    await page.route('**/api/staff/samples/*/report', (route) =>
      route.fulfill({
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify({ message: refusal, errors: [{ path: 'photoIds.2', message: refusal }] }),
      }),
    );
    await generate(dialog);
    await dialog.getByRole('alert').filter({ hasText: refusal }).waitFor();
    await page.unroute('**/api/staff/samples/*/report');
    await generate(dialog);
    await page.getByText('Report updated successfully', { exact: false }).first().waitFor();
    await dialog.waitFor({ state: 'hidden' });

    // The sample page's panel holds the same editor, filled from the new revision.
    await page.goto(`/sample/${sampleId}`);
    const maker = page.getByLabel('Maker');
    await maker.waitFor();
    expect(await maker.inputValue()).toBe('Thomas Tompion');
    expect(
      await page.getByRole('radio', { name: 'Excellent', exact: true }).getAttribute('aria-checked'),
    ).toBe('true');
    for (const width of [1366, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await shot(page, `valuation-panel-${width}`);
      for (const section of ['Photographs', 'Condition', 'Valuation']) {
        const heading = page.getByRole('heading', { name: section, exact: true }).last();
        await heading.scrollIntoViewIfNeeded();
        await shot(page, `valuation-panel-${width}-${section}`, { fullPage: false });
      }
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expectNoSeriousAxe(page);
    await context.close();
  });

  it('with a second review required, Generate sends the report for review: no download, nothing public', async () => {
    const adminToken = await loginToken(product, E2E_ADMIN.email, E2E_ADMIN.password);
    const settings = new FormData();
    settings.append('settings', JSON.stringify({ labName: 'Heritage Valuation Lab', requireReview: true }));
    await callOk(product, 'POST', '/api/lab/settings', { token: adminToken, form: settings });
    const before = await callOk<SampleDetail>(product, 'GET', `/api/samples/${sampleId}`, {
      token: customerToken,
    });
    const { page, context } = await newPage(browser, { baseURL: product.url, width: 1366, height: 900 });
    await loginAs(page, product.url, STAFF.email, STAFF.password);
    const dialog = await openDialog(page);
    await dialog.getByRole('radio', { name: 'Mint', exact: true }).click();
    let downloads = 0;
    page.on('download', () => downloads++);
    await generate(dialog);
    await page.getByText('Sent for Review', { exact: true }).waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await page.waitForTimeout(1000);
    expect(downloads).toBe(0);
    const after = await callOk<SampleDetail>(product, 'GET', `/api/samples/${sampleId}`, {
      token: customerToken,
    });
    expect(after.report?.condition?.grade).toBe(before.report?.condition?.grade);
    await context.close();
  });
});
