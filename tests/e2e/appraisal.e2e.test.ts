import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthUserResponse } from '../../common/contracts/accounts';
import { type LabSettings, REVALUE_MONTHS_INVALID } from '../../common/contracts/lab';
import type { IssueReportResponse } from '../../common/contracts/reports';
import type { OwnSampleListItem, SampleDetail } from '../../common/contracts/samples';
import { inspectionLabel } from '../../common/domain/appraisal';
import { displaySampleId } from '../../common/domain/samples';
import { loginAs, newPage, seriousAxeViolations } from '../support/browser';
import { selectTab, shot, startE2E, stopE2E, visible } from '../support/e2e';
import {
  comparableSale,
  fixturePath,
  photoFile,
  submissionFields,
  submitSample,
  valuationReport,
  appraisalAssignment,
} from '../support/factories';
import { callOk, loginToken, registerAccount } from '../support/http';
import { E2E_ADMIN, type Product } from '../support/product';

// The appraisal report around the editor (docs/product/appraisal-report.md): the admin keeps the lab's
// certification and limiting-conditions texts and the re-valuation months in the settings, an expert
// keeps their qualifications in the profile, the second expert sees the assignment and comparables
// before approving, the owner reads the whole report down to the certification on the sample page,
// and when the re-valuation date comes near, the dashboard marks the item and one click starts a new
// submission filled from the old one.

let product: Product;
let browser: Browser;
const AUTHOR = { email: 'ada.appraisal@lab.test', password: 'staff-password-1' };
const REVIEWER = { email: 'rex.appraisal@lab.test', password: 'staff-password-2' };
const CUSTOMER = { email: 'cleo.appraisal@lab.test', password: 'customer-password-1' };
const ITEM = 'River Landscape with a Mill';
const CERTIFICATION = 'We certify that this appraisal was made without bias CERT-7731.';
const QUALIFICATIONS = 'Accredited member of the Appraisers Guild, 18 years in British paintings QUAL-5521.';
let sampleId = 0;
let adminToken = '';
let customerToken = '';
let authorToken = '';
let reportCode = '';

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  ({ product, browser } = await startE2E());
  adminToken = await loginToken(product, E2E_ADMIN.email, E2E_ADMIN.password);
  const author = await registerAccount(product, { ...AUTHOR, firstName: 'Ada', lastName: 'Appraiser' });
  const reviewer = await registerAccount(product, { ...REVIEWER, firstName: 'Rex', lastName: 'Reviewer' });
  await registerAccount(product, { ...CUSTOMER, firstName: 'Cleo', lastName: 'Owner' });
  for (const id of [author.id, reviewer.id])
    await callOk(product, 'POST', `/api/admin/users/${id}/role`, {
      token: adminToken,
      json: { role: 'staff' },
    });
  customerToken = await loginToken(product, CUSTOMER.email, CUSTOMER.password);
  authorToken = await loginToken(product, AUTHOR.email, AUTHOR.password);
  sampleId = await submitSample(
    product,
    customerToken,
    submissionFields({
      submitterName: 'Cleo Owner',
      submitterEmail: CUSTOMER.email,
      itemName: ITEM,
      description: 'Oil on canvas, a water mill beside a river, in a gilt frame.',
    }),
    [photoFile('front.jpg')],
  );
  await callOk(product, 'POST', `/api/admin/samples/${sampleId}/assign`, {
    token: adminToken,
    json: { staffId: author.id },
  });
}, 120_000);

afterAll(() => stopE2E({ product, browser }));

async function signedIn(who: { email: string; password: string }) {
  const { page, context } = await newPage(browser, { baseURL: product.url, width: 1366, height: 900 });
  await loginAs(page, product.url, who.email, who.password);
  return { page, close: () => context.close() };
}

/** axe at 1366 and 375 px, with a full-page screenshot at each width to look at (`shot`). */
async function checkBothWidths(page: Page, name: string) {
  for (const width of [1366, 375]) {
    await page.setViewportSize({ width, height: 900 });
    expect(
      (await seriousAxeViolations(page)).map((v) => `${v.id}: ${v.help} ${JSON.stringify(v.nodes)}`),
    ).toEqual([]);
    await shot(page, `appraisal-${name}-${width}`);
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

/** The rich-text editor labelled `name`. */
const richText = (scope: Page | Locator, name: string) =>
  scope.getByRole('group', { name, exact: true }).getByRole('textbox');

describe('the appraisal report around the editor', () => {
  it("the admin keeps the lab's certification, limiting conditions and re-valuation months", async () => {
    const { page, close } = await signedIn(E2E_ADMIN);
    await page.goto('/admin');
    await selectTab(page, 'Settings');
    const form = page.getByRole('form', { name: 'Lab settings' });
    // The long texts open on request, with the texts in force: the product's defaults until the lab
    // saves its own.
    await form.getByRole('button', { name: 'Edit the limiting conditions and certification' }).click();
    const limiting = richText(form, 'Limiting conditions template');
    await limiting.waitFor();
    expect((await limiting.textContent())?.trim().length).toBeGreaterThan(40);
    const months = form.getByLabel('Re-valuation after (months)');
    expect(await months.inputValue()).toBe('36');
    await checkBothWidths(page, 'settings');

    await richText(form, 'Certification template').click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type(CERTIFICATION);
    await months.fill('24');
    await form
      .getByLabel("Require a second expert's review before a report is issued")
      .check({ force: true });
    await form.getByRole('button', { name: 'Save Settings' }).click();
    await visible(page, 'Lab settings updated');
    const saved = await callOk<LabSettings>(product, 'GET', '/api/lab/settings', { token: adminToken });
    expect(saved.certificationTemplate).toBe(`<p>${CERTIFICATION}</p>`);
    expect(saved.revalueAfterMonths).toBe(24);
    expect(saved.requireReview).toBe(true);
    // A months value out of bounds is refused beside the field, and nothing is saved.
    await selectTab(page, 'Settings');
    await form.getByLabel('Re-valuation after (months)').fill('0');
    await form.getByRole('button', { name: 'Save Settings' }).click();
    await visible(page, REVALUE_MONTHS_INVALID);
    const unchanged = await callOk<LabSettings>(product, 'GET', '/api/lab/settings', { token: adminToken });
    expect(unchanged.revalueAfterMonths).toBe(24);
    await close();
  });

  it('an expert keeps their qualifications in the profile', async () => {
    const { page, close } = await signedIn(AUTHOR);
    await page.goto('/profile');
    const editor = richText(page, 'Qualifications');
    await editor.click();
    await page.keyboard.type(QUALIFICATIONS);
    await checkBothWidths(page, 'profile');
    await page.getByRole('button', { name: 'Update Profile' }).click();
    await visible(page, 'Profile updated');
    const me = await callOk<AuthUserResponse>(product, 'GET', '/api/auth/user', { token: authorToken });
    expect(me.qualifications).toBe(`<p>${QUALIFICATIONS}</p>`);
    await close();
  });

  it('a customer has no qualifications field', async () => {
    const { page, close } = await signedIn(CUSTOMER);
    await page.goto('/profile');
    await page.getByRole('button', { name: 'Update Profile' }).waitFor();
    expect(await page.getByRole('group', { name: 'Qualifications' }).count()).toBe(0);
    await close();
  });

  it('the second expert sees the assignment and the comparables before approving', async () => {
    // The author issues a value due for re-valuation in 20 days; with review on, it waits.
    const detail = await callOk<SampleDetail>(product, 'GET', `/api/samples/${sampleId}`, {
      token: authorToken,
    });
    const photoId = detail.files.find((f) => f.fileCategory === 'photo')?.id;
    expect(photoId).toBeDefined();
    const issued = await callOk<IssueReportResponse>(
      product,
      'POST',
      `/api/staff/samples/${sampleId}/report`,
      {
        token: authorToken,
        json: valuationReport([photoId ?? 0], {
          valuation: {
            low: 12_000,
            high: 18_000,
            currency: 'GBP',
            valueType: 'insurance-replacement',
            effectiveDate: day(-5),
            basis: '<p>Comparable sales at auction.</p>',
          },
          assignment: appraisalAssignment({ inspectionDate: day(-6) }),
          comparables: [1, 2, 3].map((i) => comparableSale(i)),
          revalueBy: day(20),
        }),
      },
    );
    expect(issued.state).toBe('awaiting-review');
    reportCode = issued.reportCode;

    const { page, close } = await signedIn(REVIEWER);
    await page.goto(`/sample/${sampleId}`);
    const panel = page.getByRole('region', { name: 'Review this report' });
    // The whole draft is there to read, without asking for it.
    await panel.getByRole('heading', { name: 'Assignment' }).waitFor();
    await panel.getByText(appraisalAssignment().intendedUse).waitFor();
    const table = panel.getByRole('table', { name: 'Comparable sales' });
    expect(await table.getByRole('row').count()).toBe(4);
    await table.getByText(comparableSale(3).description).waitFor();
    await panel.getByText('Limiting conditions', { exact: true }).waitFor();
    await checkBothWidths(page, 'reviewer');
    await panel.getByRole('button', { name: 'Approve' }).click();
    await page
      .getByRole('dialog', { name: 'Approve and issue this report?' })
      .getByRole('button', { name: 'Approve and issue' })
      .click();
    await visible(page, 'Report Approved');
    await close();
  });

  it('the owner reads the whole report on the sample page, the certification last', async () => {
    const { page, close } = await signedIn(CUSTOMER);
    await page.goto(`/sample/${sampleId}`);
    const card = page.getByRole('region', { name: 'What the report states' });
    await card.getByRole('heading', { name: 'Certification' }).waitFor();
    const headings = await card.getByRole('heading', { level: 3 }).allTextContents();
    expect(headings[0]).toBe('Assignment');
    expect(headings.at(-1)).toBe('Certification');
    for (const part of [
      'Identification',
      'Photographs',
      'Opinion',
      'Valuation',
      'Definition of value',
      'Comparable sales',
      'Summary',
      'Scope of work, assumptions and conditions',
      'Re-valuation',
    ])
      expect(headings).toContain(part);
    await card.getByText(CERTIFICATION).waitFor();
    await card.getByText('Qualifications of Ada Appraiser (analyst)').waitFor();
    await card.getByText(QUALIFICATIONS).waitFor();
    await card.getByText('Qualifications of Rex Reviewer (reviewer)').waitFor();
    await card.getByText('No qualifications are on record for this signatory.').waitFor();
    await card.getByText(appraisalAssignment().intendedUse).waitFor();
    expect(await card.getByRole('table', { name: 'Comparable sales' }).getByRole('row').count()).toBe(4);
    await checkBothWidths(page, 'sample');
    await close();
  });

  it('the dashboard marks the item "re-valuation due"; one click starts a submission filled from it', async () => {
    const { page, close } = await signedIn(CUSTOMER);
    await page.goto('/dashboard');
    const row = page.getByRole('row', { name: new RegExp(ITEM) });
    await row.getByText('re-valuation due', { exact: true }).waitFor();
    await checkBothWidths(page, 'dashboard');
    await row.getByRole('link', { name: `Request re-valuation of ${ITEM}` }).click();
    await page.waitForURL(`**/submit-sample?revalue=${sampleId}`);
    await page.getByText('are filled in from your earlier submission', { exact: false }).waitFor();
    const form = page.locator('form');
    expect(await form.locator('[name="itemName"]').inputValue()).toBe(ITEM);
    expect(await form.locator('[name="description"]').inputValue()).toBe(
      'Oil on canvas, a water mill beside a river, in a gilt frame.',
    );
    expect(await form.locator('[name="specialInstructions"]').inputValue()).toBe(
      `Re-valuation of the item in report ${reportCode} (${displaySampleId(sampleId)}).`,
    );
    expect(await page.getByLabel('Expert Valuation').isChecked()).toBe(true);
    await checkBothWidths(page, 'revalue-form');

    // Current photos are added again; the rest is as filled in.
    await page.setInputFiles('form input[name="photos"]', fixturePath('photo.jpg'));
    await page.getByRole('img', { name: 'photo.jpg' }).waitFor();
    await page.getByRole('button', { name: 'Submit for Review' }).click();
    await page.waitForURL('**/dashboard');
    await visible(page, 'Sample Submitted Successfully!');
    const mine = await callOk<OwnSampleListItem[]>(product, 'GET', '/api/samples', { token: customerToken });
    const again = mine.filter((s) => s.itemName === ITEM && s.id !== sampleId);
    expect(again).toHaveLength(1);
    expect(again[0]?.revaluationDue).toBe(false);
    await close();
  });

  it('a visitor verifying the code reads the intended use and the inspection, never a price or a comparable', async () => {
    const { page, context } = await newPage(browser, { baseURL: product.url, width: 1366, height: 900 });
    await page.goto(`/verify-report?code=${reportCode}`);
    await page.getByRole('heading', { name: 'Appraisal' }).waitFor();
    await page.getByText(appraisalAssignment().intendedUse).waitFor();
    await page.getByText(inspectionLabel('in-person-and-laboratory'), { exact: true }).waitFor();
    const shown = await page.locator('main').innerText();
    for (const hidden of [
      comparableSale(1).description,
      '11,250',
      '12,000',
      appraisalAssignment().intendedUsers,
    ])
      expect(shown).not.toContain(hidden);
    await checkBothWidths(page, 'verify');
    await context.close();
  });
});
