import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportReview } from '../../common/contracts/review';
import { displaySampleId } from '../../common/domain/samples';
import { launchBrowser, loginAs, newPage, seriousAxeViolations } from '../support/browser';
import { selectTab, shot, shotBothWidths, startE2E, stopE2E, visible } from '../support/e2e';
import {
  comparableSale,
  element,
  photoFile,
  submissionFields,
  submitSample,
  valuationReport,
} from '../support/factories';
import { call, callOk, loginToken, registerAccount } from '../support/http';
import { E2E_ADMIN, type Product } from '../support/product';

// The second review (docs/product/valuation-report.md): the admin turns it on, one expert issues, a
// second sends it back with a comment, the first issues again, the second approves, and only then
// does the customer see the report.

let product: Product;
let browser: Browser;
/** The full browser, for the journeys that open the draft PDF in its own tab (the shell has no PDF viewer). */
let pdfBrowser: Browser;
const AUTHOR = { email: 'ada.review@lab.test', password: 'staff-password-1' };
const REVIEWER = { email: 'rita.review@lab.test', password: 'staff-password-2' };
const CUSTOMER = { email: 'carl.review@lab.test', password: 'customer-password-1' };
const ITEM = 'Regency Silver Inkstand';
const COMMENT = 'Please name the maker in full.';
let sampleId = 0;
/** The sample's photos as submitted: front.jpg, then back.jpg. */
let photoIds: number[] = [];
let adminToken = '';
let customerToken = '';
let authorToken = '';

beforeAll(async () => {
  [{ product, browser }, pdfBrowser] = await Promise.all([startE2E(), launchBrowser('full')]);
  adminToken = await loginToken(product, E2E_ADMIN.email, E2E_ADMIN.password);
  const author = await registerAccount(product, { ...AUTHOR, firstName: 'Ada', lastName: 'Author' });
  const reviewer = await registerAccount(product, { ...REVIEWER, firstName: 'Rita', lastName: 'Reviewer' });
  await registerAccount(product, { ...CUSTOMER, firstName: 'Carl', lastName: 'Owner' });
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
    submissionFields({ submitterName: 'Carl Owner', submitterEmail: CUSTOMER.email, itemName: ITEM }),
    [photoFile('front.jpg'), photoFile('back.jpg')],
  );
  const detail = await callOk<{ files: { id: number; fileCategory: string }[] }>(
    product,
    'GET',
    `/api/samples/${sampleId}`,
    { token: customerToken },
  );
  photoIds = detail.files.filter((f) => f.fileCategory === 'photo').map((f) => f.id);
  await callOk(product, 'POST', `/api/admin/samples/${sampleId}/assign`, {
    token: adminToken,
    json: { staffId: author.id },
  });
}, 120_000);

afterAll(async () => {
  await pdfBrowser?.close();
  await stopE2E({ product, browser });
});

async function signedIn(who: { email: string; password: string }, via: Browser = browser) {
  const { page, context } = await newPage(via, { baseURL: product.url });
  await loginAs(page, product.url, who.email, who.password);
  return { page, close: () => context.close() };
}

/**
 * What the author first submits: every part of an appraisal (identification, verdicts with their
 * notes, a value in GBP with its basis, the back photo before the front one, the assignment, a
 * comparable sale) and an element whose notes have a heading; they also ask for Completed.
 */
const firstDraft = () => ({
  ...valuationReport([...photoIds].reverse(), {
    elements: [
      element('Gold', 75, {
        purity: '18K',
        quality: 'Good',
        notes: '<h2>Assay method</h2><p>XRF at three spots on the base.</p>',
      }),
    ],
    comparables: [comparableSale(1)],
  }),
  markCompleted: true,
});

/** The reviewer's reading of the draft: every part the PDF states, photos in their order, element notes. */
async function expectWholeDraft(panel: Locator, maker: string) {
  const draft = panel.getByRole('region', { name: 'The draft, as the PDF will state it' });
  await draft.getByText(maker, { exact: true }).waitFor();
  for (const text of [
    'Signature and canvas consistent with the period.',
    'Minor craquelure, no losses.',
    'Comparable sales at auction, 2024–2026.',
    'A landscape in good order, consistent with the attribution.',
    'To set the sum insured under a fine-art insurance policy.',
    comparableSale(1).description,
    'XRF at three spots on the base.',
  ])
    await draft.getByText(text, { exact: false }).first().waitFor();
  // The element's notes keep their heading, in bold.
  const notesHeading = draft.getByText('Assay method', { exact: true });
  expect(await notesHeading.evaluate((el) => getComputedStyle(el).fontWeight)).toBe('700');
  expect(await draft.getByText(/^Photo \d: /).allTextContents()).toEqual([
    'Photo 1: back.jpg',
    'Photo 2: front.jpg',
  ]);
}

describe('the second review', () => {
  it('the admin turns it on in the lab settings', async () => {
    const { page, close } = await signedIn(E2E_ADMIN);
    await page.goto('/admin');
    await selectTab(page, 'Settings');
    const toggle = page.getByLabel("Require a second expert's review before a report is issued");
    expect(await toggle.isChecked()).toBe(false);
    await toggle.check({ force: true });
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await visible(page, 'Lab settings updated');
    const saved = await callOk<{ requireReview: boolean }>(product, 'GET', '/api/lab/settings', {
      token: adminToken,
    });
    expect(saved.requireReview).toBe(true);
    await close();
  });

  it('the author previews the draft PDF first: it opens in a new tab and nothing is issued', async () => {
    const { page, close } = await signedIn(AUTHOR, pdfBrowser);
    await page.goto(`/sample/${sampleId}`);
    await page.getByLabel('Element Name').fill('Gold');
    await page.getByLabel('Percentage').fill('75');
    await page.getByRole('button', { name: 'Add Element' }).click();
    await shotBothWidths(page, 'second-review-preview-button');
    // The bytes the page receives, as the server sent them.
    let pdf: Buffer = Buffer.alloc(0);
    await page.route('**/report/preview', async (route) => {
      const answer = await route.fetch();
      pdf = await answer.body();
      await route.fulfill({ response: answer });
    });
    const [popup, response] = await Promise.all([
      page.context().waitForEvent('page'),
      page.waitForResponse((r) => r.url().endsWith(`/api/staff/samples/${sampleId}/report/preview`)),
      page.getByRole('button', { name: 'Preview PDF' }).click(),
    ]);
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toBe('application/pdf');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.includes('/ByteRange')).toBe(false);
    // The new tab shows it.
    await expect.poll(() => popup.url(), { timeout: 15_000 }).toMatch(/^blob:/);
    await popup.close();
    // Nothing was issued: no draft awaits review, and the customer still has no code.
    const review = await callOk<ReportReview | null>(
      product,
      'GET',
      `/api/staff/samples/${sampleId}/report/review`,
      { token: authorToken },
    );
    expect(review).toBeNull();
    await close();
  });

  it('the author issues the whole appraisal: nothing is public and the report waits for a second expert', async () => {
    const sent = await callOk<{ state: string }>(product, 'POST', `/api/staff/samples/${sampleId}/report`, {
      token: authorToken,
      json: firstDraft(),
    });
    expect(sent.state).toBe('awaiting-review');
    const { page, close } = await signedIn(AUTHOR);
    await page.goto(`/sample/${sampleId}`);
    await visible(page, 'Awaiting review by a second expert');
    // The editor does not offer to issue again while the draft is with the reviewer.
    await visible(page, 'With a second expert');
    expect(await page.getByRole('button', { name: 'Generate PDF Report' }).count()).toBe(0);
    // The author can read what they submitted.
    await page.getByRole('button', { name: 'Show what was submitted' }).click();
    await page
      .getByRole('region', { name: 'The draft, as the PDF will state it' })
      .getByText('John Constable (attributed)')
      .waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shotBothWidths(page, 'second-review-author-waiting');
    const review = await callOk<ReportReview>(
      product,
      'GET',
      `/api/staff/samples/${sampleId}/report/review`,
      {
        token: authorToken,
      },
    );
    expect(review).toMatchObject({ state: 'awaiting-review', canReview: false, completeOnApproval: true });
    expect((await call(product, 'GET', `/api/reports/verify/${review.reportCode}`)).status).toBe(404);
    const owned = await callOk<{ reportCode: string | null }>(product, 'GET', `/api/samples/${sampleId}`, {
      token: customerToken,
    });
    expect(owned.reportCode).toBeNull();
    // Their own report is not in their review queue.
    await page.goto('/staff');
    await visible(page, 'Assigned Samples');
    expect(await page.getByRole('heading', { name: 'Awaiting your review' }).count()).toBe(0);
    await close();
  });

  it('a second expert finds it under "Awaiting your review", lands on the panel, reads the whole draft and sends it back', async () => {
    const { page, close } = await signedIn(REVIEWER, pdfBrowser);
    await page.goto('/staff');
    const queue = page.getByRole('region', { name: 'Awaiting your review' });
    await queue.getByText('issued by Ada Author', { exact: false }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shotBothWidths(page, 'second-review-dashboard');
    await queue.getByRole('link', { name: new RegExp(ITEM) }).click();
    const panel = page.getByRole('region', { name: 'Review this report' });
    await panel.getByText('Ada Author').waitFor();
    // Landed on the panel: its heading has the focus and is on screen.
    const heading = panel.getByRole('heading', { name: 'Review this report' });
    await expect.poll(() => heading.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await heading.evaluate((el) => el.getBoundingClientRect().top)).toBeLessThan(900);
    await expectWholeDraft(panel, 'John Constable (attributed)');
    // The draft PDF itself opens in a new tab: marked as a draft, never signed.
    const [popup, response] = await Promise.all([
      page.context().waitForEvent('page'),
      page.waitForResponse((r) => r.url().endsWith(`/api/staff/samples/${sampleId}/report/review/pdf`)),
      panel.getByRole('button', { name: 'Open the draft PDF' }).click(),
    ]);
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toBe('application/pdf');
    await expect.poll(() => popup.url(), { timeout: 15_000 }).toMatch(/^blob:/);
    await popup.close();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shotBothWidths(page, 'second-review-reviewer');
    await page.setViewportSize({ width: 375, height: 900 });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(panel, 'second-review-panel-375');
    await page.setViewportSize({ width: 1366, height: 900 });
    await panel.getByRole('button', { name: 'Send back' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send the report back' });
    await dialog.getByRole('button', { name: 'Send back' }).click();
    await dialog.getByText('Please say what needs to change').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await dialog.getByLabel('What needs to change').fill(COMMENT);
    await dialog.getByRole('button', { name: 'Send back' }).click();
    await visible(page, 'Sent Back');
    await dialog.waitFor({ state: 'hidden' });
    await close();
  });

  it('the send-back mail to the author waits in the Outbox (no mail server here), with the comment', async () => {
    const { page, close } = await signedIn(E2E_ADMIN);
    await page.goto('/admin');
    await selectTab(page, 'Outbox');
    await visible(page, 'No mail server configured');
    const row = page.locator('tr', { hasText: AUTHOR.email }).filter({ hasText: 'Sent back: your report' });
    await row.getByText('pending', { exact: true }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await row.getByRole('button', { name: /^View/ }).click();
    const frame = page.frameLocator('iframe[title^="Message: Sent back: your report"]');
    await frame.getByText(COMMENT).waitFor();
    await frame.getByText('Rita Reviewer reviewed your report', { exact: false }).waitFor();
    await shotBothWidths(page, 'second-review-outbox-sent-back');
    await close();
  });

  it('the author finds the returned draft in the editor, fixes the maker and issues again', async () => {
    const { page, close } = await signedIn(AUTHOR);
    await page.goto(`/sample/${sampleId}`);
    await visible(page, 'Sent back by the reviewer');
    await visible(page, COMMENT);
    const history = page.getByRole('region', { name: 'Review history' });
    await history.getByText('Sent back by Rita Reviewer').waitFor();
    await history.getByText(COMMENT).waitFor();
    // Every part of what was sent back is in the editor again, nothing to type from nothing.
    await visible(page, /The editor holds revision 1 as it was sent back/);
    const maker = page.getByLabel('Maker');
    await expect.poll(() => maker.inputValue()).toBe('John Constable (attributed)');
    expect(await page.getByLabel('Materials').inputValue()).toBe('Oil on canvas');
    expect(
      await page.getByRole('radio', { name: 'Authentic', exact: true }).getAttribute('aria-checked'),
    ).toBe('true');
    expect(
      await page.getByRole('radio', { name: 'Very good', exact: true }).getAttribute('aria-checked'),
    ).toBe('true');
    await page
      .getByRole('group', { name: 'Rationale', exact: true })
      .getByText('Signature and canvas consistent with the period.')
      .waitFor();
    expect(await page.getByRole('combobox', { name: 'Currency' }).inputValue()).toMatch(/^GBP/);
    expect(await page.getByLabel('Low value (GBP)').inputValue()).toMatch(/^12,?000$/);
    expect(await page.getByLabel('High value (GBP)').inputValue()).toMatch(/^18,?000$/);
    expect(
      await page
        .getByRole('list', { name: 'Photos on the report, in order' })
        .getByText(/^Photo \d: /)
        .allTextContents(),
    ).toEqual(['Photo 1: back.jpg', 'Photo 2: front.jpg']);
    expect(await page.getByLabel('Intended use', { exact: true }).inputValue()).toBe(
      'To set the sum insured under a fine-art insurance policy.',
    );
    await page.getByText(comparableSale(1).description, { exact: false }).first().waitFor();
    await page.getByRole('cell', { name: 'Gold', exact: true }).waitFor();
    expect(await page.getByLabel('Also mark the sample Completed').isChecked()).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shotBothWidths(page, 'second-review-author-sent-back');
    await page.setViewportSize({ width: 375, height: 900 });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1366, height: 900 });

    // One field changed, then issued again from the loaded draft.
    await maker.fill('John Constable');
    // The element is edited in place: its values and notes fill the form, Save puts it back in its row.
    await page.getByRole('button', { name: 'Edit Gold' }).click();
    await page.getByRole('heading', { name: 'Edit Gold' }).waitFor();
    expect(await page.getByLabel('Element Name').inputValue()).toBe('Gold');
    expect(await page.getByLabel('Purity').inputValue()).toBe('18K');
    await page
      .getByRole('group', { name: 'Notes', exact: true })
      .getByText('XRF at three spots on the base.')
      .waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByLabel('Purity').fill('750');
    await page.getByRole('button', { name: 'Save Element' }).click();
    await visible(page, 'Element Updated');
    await page.getByRole('cell', { name: '750', exact: true }).waitFor();
    await expect
      .poll(() =>
        page.getByRole('button', { name: 'Edit Gold' }).evaluate((el) => el === document.activeElement),
      )
      .toBe(true);
    await page.getByRole('button', { name: 'Add Element' }).waitFor();
    await page.getByRole('button', { name: 'Generate PDF Report' }).click();
    await visible(page, 'Sent for Review');
    await visible(page, 'Awaiting review by a second expert');
    // The form gave way to a note; the focus went there, not to the page's body.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent ?? ''))
      .toContain('With a second expert');
    const again = await callOk<ReportReview>(product, 'GET', `/api/staff/samples/${sampleId}/report/review`, {
      token: authorToken,
    });
    // Everything else went back as it was.
    expect(again).toMatchObject({ state: 'awaiting-review', revision: 1, completeOnApproval: true });
    expect(again.content).toMatchObject({
      identification: { ...valuationReport().identification, maker: 'John Constable' },
      authenticity: valuationReport().authenticity,
      condition: valuationReport().condition,
      valuation: { low: 12_000, high: 18_000, currency: 'GBP', basis: valuationReport().valuation?.basis },
      photoIds: [...photoIds].reverse(),
      assignment: valuationReport().assignment,
      comparables: [{ description: comparableSale(1).description, price: comparableSale(1).price }],
    });
    expect(again.elements).toEqual((firstDraft().elements ?? []).map((e) => ({ ...e, purity: '750' })));
    await shotBothWidths(page, 'second-review-author-awaiting');
    await close();
  });

  it('the second expert approves, and the customer sees the report, naming both experts', async () => {
    const { page, close } = await signedIn(REVIEWER);
    await page.goto(`/sample/${sampleId}`);
    const panel = page.getByRole('region', { name: 'Review this report' });
    // The corrected draft, whole, and the earlier send-back with its comment beside it.
    await expectWholeDraft(panel, 'John Constable');
    const earlier = page.getByRole('region', { name: 'Review history' });
    await earlier.getByText('Sent back by Rita Reviewer').waitFor();
    await earlier.getByText(COMMENT).waitFor();
    // Approve asks first, naming what will happen.
    await panel.getByRole('button', { name: 'Approve' }).click();
    const confirm = page.getByRole('dialog', { name: 'Approve and issue this report?' });
    await confirm.getByText('naming Ada Author as analyst and you as reviewer', { exact: false }).waitFor();
    await confirm.getByText('The client is mailed that their report is ready', { exact: false }).waitFor();
    await confirm.getByText('the sample is marked Completed', { exact: false }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shotBothWidths(page, 'second-review-approve-confirm');
    // Cancel changes nothing.
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect(
      (
        await callOk<ReportReview>(product, 'GET', `/api/staff/samples/${sampleId}/report/review`, {
          token: authorToken,
        })
      ).state,
    ).toBe('awaiting-review');
    await panel.getByRole('button', { name: 'Approve' }).click();
    await confirm.getByRole('button', { name: 'Approve and issue' }).click();
    await visible(page, 'Report Approved');
    await panel.waitFor({ state: 'hidden' });
    // Both decisions stay on record, newest first, the send-back with its comment.
    const history = page.getByRole('region', { name: 'Review history' });
    await history.getByText('Approved by Rita Reviewer').waitFor();
    const entries = await history.getByText(/^(Approved|Sent back) by /).allTextContents();
    expect(entries).toEqual(['Approved by Rita Reviewer', 'Sent back by Rita Reviewer']);
    await history.getByText(COMMENT).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shotBothWidths(page, 'second-review-history');
    await page.setViewportSize({ width: 375, height: 900 });
    await shot(history, 'second-review-history-card-375');
    await close();

    const owned = await callOk<{ reportCode: string | null }>(product, 'GET', `/api/samples/${sampleId}`, {
      token: customerToken,
    });
    expect(owned.reportCode).toMatch(/^[A-Z2-9]{8}$/);
    const customer = await signedIn(CUSTOMER);
    await customer.page.goto(`/sample/${sampleId}`);
    await visible(customer.page, owned.reportCode ?? '');
    expect(await customer.page.getByText('Review history').count()).toBe(0);
    // The owner's report card has the analysis table too, as the public page does, notes and all.
    const card = customer.page.getByRole('region', { name: 'What the report states' });
    await card.getByRole('heading', { name: 'Analysis Results' }).waitFor();
    await card.getByRole('cell', { name: 'Gold', exact: true }).waitFor();
    await card.getByRole('cell', { name: '750', exact: true }).waitFor();
    await card.getByText('XRF at three spots on the base.').waitFor();
    expect(
      await card.getByText('Assay method', { exact: true }).evaluate((el) => getComputedStyle(el).fontWeight),
    ).toBe('700');
    expect(await seriousAxeViolations(customer.page)).toEqual([]);
    await customer.page.setViewportSize({ width: 375, height: 900 });
    expect(await seriousAxeViolations(customer.page)).toEqual([]);
    await shot(card, 'second-review-owner-card-375');
    await customer.page.setViewportSize({ width: 1366, height: 900 });
    expect(await customer.page.getByText(COMMENT).count()).toBe(0);
    await customer.page.goto(`/verify-report?code=${owned.reportCode}`);
    await visible(customer.page, /Reviewed By:\s*Rita Reviewer/);
    await visible(customer.page, /Analyzed By:\s*Ada Author/);
    await shotBothWidths(customer.page, 'second-review-verify');
    // Its credential names both experts too, and the check shows them.
    const vc = await call(product, 'GET', `/api/reports/verify/${owned.reportCode}/credential`);
    const check = customer.page.getByRole('form', { name: 'Check a credential' });
    await check.getByLabel('Credential').fill(vc.text);
    await check.getByRole('button', { name: 'Check Credential' }).click();
    await check.getByText('Analyzed by Ada Author, reviewed by Rita Reviewer.').waitFor();
    await check.getByText('Analyzed by Ada Author, reviewed by Rita Reviewer.').scrollIntoViewIfNeeded();
    await shotBothWidths(customer.page, 'second-review-credential');
    await customer.close();
  });
  it('Generate from the dashboard with review on: the dialog closes and the focus goes back to its button', async () => {
    const second = await submitSample(
      product,
      customerToken,
      submissionFields({
        submitterName: 'Carl Owner',
        submitterEmail: CUSTOMER.email,
        itemName: 'Pair of Candlesticks',
      }),
      [photoFile('front.jpg')],
    );
    const me = await callOk<{ id: number }>(product, 'GET', '/api/auth/user', { token: authorToken });
    await callOk(product, 'POST', `/api/admin/samples/${second}/assign`, {
      token: adminToken,
      json: { staffId: me.id },
    });
    const { page, close } = await signedIn(AUTHOR);
    await page.goto('/staff');
    const opener = page.getByRole('button', {
      name: `Generate Report for ${displaySampleId(second)}`,
    });
    await opener.click();
    const dialog = page.getByRole('dialog', { name: 'Generate Analysis Report' });
    await dialog.getByLabel('Element Name').fill('Brass');
    await dialog.getByLabel('Percentage').fill('60');
    await dialog.getByRole('button', { name: 'Add Element' }).click();
    await dialog.getByRole('button', { name: 'Generate PDF Report' }).click();
    await visible(page, 'Sent for Review');
    await dialog.waitFor({ state: 'hidden' });
    await expect
      .poll(() => opener.evaluate((el) => el === document.activeElement), { timeout: 10_000 })
      .toBe(true);
    // Opening it again while the draft waits says so, and Close returns the focus too.
    await opener.click();
    await dialog.getByText('With a second expert').waitFor();
    expect(await dialog.getByRole('button', { name: 'Generate PDF Report' }).count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
    await dialog.waitFor({ state: 'hidden' });
    await expect
      .poll(() => opener.evaluate((el) => el === document.activeElement), { timeout: 10_000 })
      .toBe(true);
    await close();
  });
});
