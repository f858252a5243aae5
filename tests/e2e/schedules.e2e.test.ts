import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousAxeViolations, loginAs, newPage } from '../support/browser';
import { type E2E, shot, startE2E, stopE2E, visible } from '../support/e2e';
import { callOk, loginToken, registerAccount } from '../support/http';
import { submitSample, valuationReport } from '../support/factories';
import { E2E_ADMIN } from '../support/product';

// A collection's schedule (docs/product/schedules.md): once every item has an issued report, an
// admin issues the schedule from the collection page; the owner downloads the signed PDF and opens
// its public verification, which lists the items and their report codes without any value. Both
// screens hold at 1366 and 375 px with no serious axe violation.

let e2e: E2E;
let collectionId: number;
const reportCodes: string[] = [];
const url = () => e2e.product.url;
const owner = {
  email: `schedule-${Date.now()}@example.com`,
  password: 'schedule-password-1',
  firstName: 'Edith',
  lastName: 'Crawley',
};

beforeAll(async () => {
  e2e = await startE2E();
  await registerAccount(e2e.product, owner);
  const token = await loginToken(e2e.product, owner.email, owner.password);
  const admin = await loginToken(e2e.product, E2E_ADMIN.email, E2E_ADMIN.password);
  collectionId = (
    await callOk<{ id: number }>(e2e.product, 'POST', '/api/collections', {
      token,
      json: { name: 'Household silver', purpose: 'insurance' },
    })
  ).id;
  const ids = [await submitSample(e2e.product, token), await submitSample(e2e.product, token)];
  await callOk(e2e.product, 'POST', `/api/collections/${collectionId}/samples`, {
    token,
    json: { sampleIds: ids },
  });
  for (const [i, id] of ids.entries()) {
    const base = valuationReport();
    const issued = await callOk<{ reportCode: string }>(
      e2e.product,
      'POST',
      `/api/staff/samples/${id}/report`,
      {
        token: admin,
        json: { ...base, valuation: { ...base.valuation, low: undefined, high: 1000 * (i + 1) } },
      },
    );
    reportCodes.push(issued.reportCode);
  }
}, 180_000);
afterAll(() => stopE2E(e2e));

const noOverflow = async (page: Page) =>
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);

describe('a collection’s schedule', () => {
  let scheduleCode: string;

  it('is issued by an admin from the collection page once every item has its report', async () => {
    const { page } = await newPage(e2e.browser, { baseURL: url(), width: 1366, height: 900 });
    await loginAs(page, url(), E2E_ADMIN.email, E2E_ADMIN.password);
    await page.goto(`/collections/${collectionId}`);
    const card = page.locator('section[aria-labelledby="schedule-title"]');
    await card.getByText('No schedule yet.', { exact: false }).waitFor();
    await page.waitForLoadState('networkidle');
    await card.getByRole('button', { name: 'Issue schedule' }).click();
    await visible(page, 'Schedule issued');
    const issued = card.locator('[data-schedule-code]');
    await issued.waitFor();
    scheduleCode = (await issued.getAttribute('data-schedule-code')) ?? '';
    expect(scheduleCode).toMatch(/^[A-Z2-9]{8}$/);
    await expect(issued.textContent()).resolves.toContain('2 items');
    await expectNoSeriousAxeViolations(page);
    await shot(card, 'schedule-card-1366');
  });

  it('is downloaded by the owner as a signed PDF, and opened in its public verification without values', async () => {
    const { page } = await newPage(e2e.browser, { baseURL: url(), width: 1366, height: 900 });
    await loginAs(page, url(), owner.email, owner.password);
    await page.goto(`/collections/${collectionId}`);
    const card = page.locator('section[aria-labelledby="schedule-title"]');
    await card.locator(`[data-schedule-code="${scheduleCode}"]`).waitFor();
    // The owner does not issue schedules.
    expect(await card.getByRole('button', { name: 'Issue schedule' }).count()).toBe(0);
    await page.waitForLoadState('networkidle');
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 30_000 }),
      card.getByRole('button', { name: 'Download schedule' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`Schedule-${scheduleCode}.pdf`);
    const file = join(tmpdir(), `schedule-e2e-${Date.now()}.pdf`);
    await download.saveAs(file);
    const bytes = readFileSync(file);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(bytes.includes('/SubFilter /adbe.pkcs7.detached')).toBe(true);

    await card.getByRole('link', { name: 'Verify' }).click();
    await page.waitForURL(new RegExp(`/verify-schedule\\?code=${scheduleCode}`));
    await visible(page, 'Authentic');
    for (const code of reportCodes) await page.getByRole('link', { name: code }).waitFor();
    const section = page.locator('section[aria-labelledby="verified-title"]');
    const text = (await section.textContent()) ?? '';
    for (const secret of ['£', '1,000', '2,000', 'Household silver', 'Crawley'])
      expect(text).not.toContain(secret);
    await expectNoSeriousAxeViolations(page);
    await shot(page, 'schedule-verify-1366');

    // A report code opens that report's own verification.
    await page.getByRole('link', { name: reportCodes[0] as string }).click();
    await page.waitForURL(new RegExp(`/verify-report\\?code=${reportCodes[0]}`));
  });

  it('works at 375 px: the schedule card and the verification page, nothing off screen', async () => {
    const { page } = await newPage(e2e.browser, { baseURL: url(), width: 375, height: 800 });
    await loginAs(page, url(), owner.email, owner.password);
    await page.goto(`/collections/${collectionId}`);
    const card = page.locator('section[aria-labelledby="schedule-title"]');
    await card.locator(`[data-schedule-code="${scheduleCode}"]`).waitFor();
    const box = await card.getByRole('button', { name: 'Download schedule' }).boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true);
    await noOverflow(page);
    await expectNoSeriousAxeViolations(page);
    await shot(card, 'schedule-card-375');

    await page.goto(`/verify-schedule?code=${scheduleCode.toLowerCase()}`);
    await visible(page, 'Authentic');
    await page.getByRole('link', { name: reportCodes[1] as string }).waitFor();
    await noOverflow(page);
    await expectNoSeriousAxeViolations(page);
    await shot(page, 'schedule-verify-375');

    await page.goto('/verify-schedule?code=ZZZZZZZZ');
    await visible(page, 'Schedule not found');
    await expectNoSeriousAxeViolations(page);
  });
});
