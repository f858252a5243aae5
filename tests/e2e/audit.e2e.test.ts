import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadCsv, loginAs, newPage, expectNoSeriousAxeViolations } from '../support/browser';
import { type E2E, selectTab, startE2E, stopE2E, visible } from '../support/e2e';
import { callOk, loginToken, registerAccount } from '../support/http';
import { submitSample } from '../support/factories';
import { E2E_ADMIN } from '../support/product';

// The admin's Audit tab (docs/product/audit-trail.md): an auditor asks for every action on one
// sample, gets them with who, when and what changed, verifies the chain; the filters stay in the URL;
// the screen holds at 1366 and 375 px with no serious axe violation.

let e2e: E2E;
const url = () => e2e.product.url;
let sampleId: number;
let otherId: number;

beforeAll(async () => {
  e2e = await startE2E();
  const customer = {
    email: `audit-${Date.now()}@example.com`,
    password: 'audit-password-1',
    firstName: 'Ada',
    lastName: 'Owner',
  };
  await registerAccount(e2e.product, customer);
  const customerToken = await loginToken(e2e.product, customer.email, customer.password);
  const admin = await loginToken(e2e.product, E2E_ADMIN.email, E2E_ADMIN.password);
  sampleId = await submitSample(e2e.product, customerToken);
  otherId = await submitSample(e2e.product, customerToken);
  for (const [id, status] of [
    [sampleId, 'in-progress'],
    [sampleId, 'analysis'],
    [otherId, 'in-progress'],
  ] as const)
    await callOk(e2e.product, 'POST', `/api/staff/samples/${id}/status`, {
      token: admin,
      json: { status, comment: '' },
    });
}, 180_000);
afterAll(() => stopE2E(e2e));

/** The event rows shown (their ids). */
const shownEvents = (page: Page) =>
  page.locator('[data-event-id]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-event-id')));

describe('the Audit tab', () => {
  it('filters to one sample, shows its events with what changed, keeps the filters in the URL, exports them as CSV, and verifies the chain', async () => {
    const { page } = await newPage(e2e.browser, { baseURL: url(), width: 1366, height: 900 });
    await loginAs(page, url(), E2E_ADMIN.email, E2E_ADMIN.password);
    await page.goto('/admin');
    await page.waitForLoadState('networkidle');
    await selectTab(page, 'Audit');
    await page.getByRole('textbox', { name: 'Subject id' }).waitFor();

    await page.getByLabel('Subject type', { exact: true }).first().click();
    await page.getByRole('option', { name: 'sample', exact: true }).click();
    await page.getByRole('textbox', { name: 'Subject id' }).fill(String(sampleId));
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(new RegExp(`auditSubjectId=${sampleId}`));
    await visible(page, '2 events');
    const rows = page.locator('[data-event-id]');
    expect(await rows.count()).toBe(2);
    // Newest first: analysis, then in-progress; each with its before and after.
    await expect(rows.nth(0).textContent()).resolves.toMatch(
      /sample\.status_changed.*"status":"in-progress".*"status":"analysis"/s,
    );
    await expect(rows.nth(1).textContent()).resolves.toMatch(/"status":"submitted".*"status":"in-progress"/s);
    await expect(rows.nth(0).textContent()).resolves.toContain(E2E_ADMIN.email);
    await expect(rows.nth(0).textContent()).resolves.toContain(`sample ${sampleId}`);
    await expectNoSeriousAxeViolations(page);

    // A reload (or the link sent to a colleague) opens the same view.
    const filtered = await shownEvents(page);
    await page.reload();
    await visible(page, '2 events');
    expect(await shownEvents(page)).toEqual(filtered);

    // Export CSV downloads the events of this view, newest first, with what changed and the chain.
    const { fileName, rows: exported } = await downloadCsv(page, 'Export CSV');
    expect(fileName).toMatch(/^audit-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(exported.map((e) => e.id)).toEqual(filtered);
    expect(exported.map((e) => [e.action, e.subjectType, e.subjectId, e.actorLabel])).toEqual([
      ['sample.status_changed', 'sample', String(sampleId), E2E_ADMIN.email],
      ['sample.status_changed', 'sample', String(sampleId), E2E_ADMIN.email],
    ]);
    expect(JSON.parse(exported[0]?.after ?? '')).toMatchObject({ status: 'analysis' });
    for (const e of exported) expect(e.hash).toMatch(/^[0-9a-f]{64}$/);

    await page.getByRole('button', { name: 'Verify chain' }).click();
    await visible(page, 'Chain valid');
    await visible(page, /events checked; none was changed or removed/);
    await expectNoSeriousAxeViolations(page);
  });

  it('works at 375 px: the events as cards, the filters and buttons within reach', async () => {
    const { page } = await newPage(e2e.browser, { baseURL: url(), width: 375, height: 800 });
    await loginAs(page, url(), E2E_ADMIN.email, E2E_ADMIN.password);
    await page.goto(`/admin?tab=audit&auditSubjectType=sample&auditSubjectId=${otherId}`);
    await visible(page, '1 event');
    const row = page.locator('[data-event-id]').first();
    await expect(row.textContent()).resolves.toMatch(/"status":"submitted".*"status":"in-progress"/s);
    const box = await row.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.getByRole('button', { name: 'Verify chain' }).click();
    await visible(page, 'Chain valid');
    await expectNoSeriousAxeViolations(page);
  });
});
