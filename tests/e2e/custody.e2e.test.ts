import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAs, newPage, expectNoSeriousAxeViolations } from '../support/browser';
import { type E2E, selectTab, startE2E, stopE2E, visible } from '../support/e2e';
import { call, callOk, loginToken, registerAccount } from '../support/http';
import { fixturePath, submitSample } from '../support/factories';
import { E2E_ADMIN } from '../support/product';
import { PROGRAMS, requirePrograms } from '../support/programs';

// Custody of the item in the browser (docs/product/custody.md): a staff member receives a parcel at
// the desk with an arrival photo, prints its label (the PDF's QR code decoded by zbarimg), types the
// label's id into the scan box, takes the item and puts it back with one click each, hands it to a
// chosen expert and sends it back by courier; the owner
// reads the arrival and the return on their sample page; the admin's Inventory and Locations tabs;
// no serious axe violation at 1366 and 375 px.

const zbar = requirePrograms([PROGRAMS.pdftoppm, PROGRAMS.zbarimg], 'the custody journey (label decoding)');

let e2e: E2E;
const url = () => e2e.product.url;
let sampleId: number;
let displayId: string;
const owner = {
  email: `custody-owner-${Date.now()}@example.com`,
  password: 'custody-owner-1',
  firstName: 'Olivia',
  lastName: 'Hartley',
};
const staff = {
  email: `custody-staff-${Date.now()}@example.com`,
  password: 'custody-staff-1',
  firstName: 'Eleanor',
  lastName: 'Vance',
};

beforeAll(async () => {
  e2e = await startE2E();
  await registerAccount(e2e.product, owner);
  const staffAccount = await registerAccount(e2e.product, staff);
  const ownerToken = await loginToken(e2e.product, owner.email, owner.password);
  const admin = await loginToken(e2e.product, E2E_ADMIN.email, E2E_ADMIN.password);
  await callOk(e2e.product, 'POST', `/api/admin/users/${staffAccount.id}/role`, {
    token: admin,
    json: { role: 'staff' },
  });
  for (const name of ['Vault A', 'Photo studio'])
    await callOk(e2e.product, 'POST', '/api/admin/locations', { token: admin, json: { name } });
  sampleId = await submitSample(e2e.product, ownerToken);
  displayId = `VAL-${String(sampleId).padStart(4, '0')}`;
}, 180_000);
afterAll(() => stopE2E(e2e));

/** Waits until the (first) element is visible. */
const shown = (locator: Locator) => locator.first().waitFor({ state: 'visible' });

const custodyCard = (page: Page) => page.getByRole('region', { name: 'Custody' });

/** The label PDF's symbols as zbarimg reads them ('QR-Code:VAL-0001', 'CODE-128:VAL-0001'). */
function decodeLabel(pdf: Buffer): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'vl-e2e-label-'));
  try {
    writeFileSync(join(dir, 'label.pdf'), pdf);
    execFileSync('pdftoppm', ['-r', '300', '-png', join(dir, 'label.pdf'), join(dir, 'label')]);
    const png = readdirSync(dir).find((f) => f.endsWith('.png'));
    if (!png) throw new Error('pdftoppm wrote no page');
    return execFileSync('zbarimg', ['-q', join(dir, png)], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .sort();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Types into the scan box and presses Enter, as a handheld scanner does. */
async function scan(page: Page, text: string) {
  const box = page.getByLabel('Scan or type a VAL id');
  await box.fill(text);
  await box.press('Enter');
}

describe.skipIf(!zbar)('custody of the item', () => {
  it('staff receive the parcel, print and scan its label, hand it to an expert and return it by courier', async () => {
    const { page, context } = await newPage(e2e.browser, { baseURL: url(), width: 1366, height: 900 });
    const staffToken = await loginAs(page, url(), staff.email, staff.password);
    await page.goto('/staff');
    await page.waitForLoadState('networkidle');

    // The parcel's paperwork names the VAL id: typed into the scan box, the sample opens.
    await scan(page, `val ${sampleId}`);
    await page.waitForURL(`**/sample/${sampleId}#custody`);
    await page.waitForLoadState('networkidle');
    await shown(custodyCard(page).getByText('Awaiting arrival'));

    // Intake at the desk, with an arrival photo, into Vault A.
    await custodyCard(page).getByRole('button', { name: 'Receive item' }).click();
    const intake = page.getByRole('dialog');
    await intake.getByLabel('Packaging').waitFor();
    await expectNoSeriousAxeViolations(page);
    await intake.getByLabel('Number of pieces').fill('2');
    await intake.getByLabel('Packaging').fill('Double box, bubble wrap');
    await intake.getByLabel('Condition on arrival').fill('In good order, a hairline crack on the lid');
    await intake.getByLabel('Location', { exact: true }).click();
    await page.getByRole('option', { name: 'Vault A' }).click();
    await intake.locator('input[name="photos"]').setInputFiles(fixturePath('photo.jpg'));
    await intake.getByRole('button', { name: 'Receive item' }).click();
    await visible(page, 'Item received');
    await intake.waitFor({ state: 'hidden' });
    await shown(custodyCard(page).getByText('In storage'));
    await shown(custodyCard(page).getByText('Vault A').first());
    await shown(custodyCard(page).getByText('1 arrival photo'));

    // Print label: the button fetches the PDF and opens it in a new tab. The label's QR code and
    // barcode read as the VAL id (decoded from the same call), which typed into the scan box opens
    // the sample again.
    const labelResponse = page.waitForResponse((r) =>
      r.url().endsWith(`/api/staff/samples/${sampleId}/label`),
    );
    const popup = context.waitForEvent('page');
    await custodyCard(page).getByRole('button', { name: 'Print label' }).click();
    const response = await labelResponse;
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toBe('application/pdf');
    await (await popup).close();
    const label = await call(e2e.product, 'GET', `/api/staff/samples/${sampleId}/label`, {
      token: staffToken,
    });
    const symbols = decodeLabel(label.buffer ?? Buffer.alloc(0));
    expect(symbols).toEqual([`CODE-128:${displayId}`, `QR-Code:${displayId}`]);
    const qrText = symbols.find((s) => s.startsWith('QR-Code:'))!.slice('QR-Code:'.length);
    await page.goto('/staff');
    await page.waitForLoadState('networkidle');
    await scan(page, qrText);
    await page.waitForURL(`**/sample/${sampleId}#custody`);
    await page.waitForLoadState('networkidle');

    // The scan opens the sample at its custody card: the one-click moves come next, by keyboard.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('custody');
    await shown(custodyCard(page).getByRole('button', { name: 'Take it myself' }));
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Take it myself');
    await page.keyboard.press('Enter');
    await visible(page, 'The item is with you');
    await shown(custodyCard(page).getByText('With an expert'));
    await shown(custodyCard(page).getByText('Expert: Eleanor Vance'));
    await shown(custodyCard(page).getByText('Held by Eleanor Vance'));
    // One click puts it back on the shelf it came from.
    await custodyCard(page).getByRole('button', { name: 'Back to Vault A' }).click();
    await visible(page, 'Put back in Vault A');
    await shown(custodyCard(page).getByText('In storage'));
    expect(await custodyCard(page).getByRole('button', { name: 'Back to Vault A' }).count()).toBe(0);

    // Hand it to a chosen expert in the photo studio, through the dialog.
    await custodyCard(page).getByRole('button', { name: 'Hand to an expert' }).click();
    const handOver = page.getByRole('dialog');
    await shown(handOver.getByText('Nobody chosen: you take the item yourself'));
    await handOver.getByLabel('Expert', { exact: true }).click();
    await page.getByRole('option', { name: 'Eleanor Vance' }).click();
    await handOver.getByLabel(/Where the expert works/).click();
    await page.getByRole('option', { name: 'Photo studio' }).click();
    await expectNoSeriousAxeViolations(page);
    await handOver.getByRole('button', { name: 'Hand over' }).click();
    await visible(page, 'Item handed to an expert');
    await shown(custodyCard(page).getByText('With an expert'));
    expect(await custodyCard(page).getByText('Expert: Eleanor Vance').count()).toBe(2);

    // Back by courier: the required fields are asked for first.
    await custodyCard(page).getByRole('button', { name: 'Return item' }).click();
    const back = page.getByRole('dialog');
    await back.getByRole('button', { name: 'Return by courier' }).click();
    await shown(back.getByText('Enter the carrier'));
    await expectNoSeriousAxeViolations(page);
    await back.getByLabel('Carrier').fill('DHL Express');
    await back.getByLabel('Tracking number').fill('JD014600006281');
    await back.getByLabel('Insured value (optional)').fill('1200');
    await back.getByLabel('Currency').fill('EUR');
    await back.getByRole('button', { name: 'Return by courier' }).click();
    await visible(page, 'Item returned');
    await shown(custodyCard(page).getByText('Returned', { exact: true }));
    await shown(custodyCard(page).getByText('Tracking: JD014600006281'));
    expect(await custodyCard(page).getByRole('button', { name: 'Return item' }).count()).toBe(0);
    await expectNoSeriousAxeViolations(page);

    await page.setViewportSize({ width: 375, height: 800 });
    await page.waitForLoadState('networkidle');
    await shown(custodyCard(page).getByText('Returned', { exact: true }));
    await expectNoSeriousAxeViolations(page);
    await context.close();
  });

  it('the owner reads the arrival and the return, never where the lab kept it', async () => {
    for (const width of [1366, 375]) {
      const { page, context } = await newPage(e2e.browser, { baseURL: url(), width, height: 900 });
      await loginAs(page, url(), owner.email, owner.password);
      await page.goto(`/sample/${sampleId}`);
      await page.waitForLoadState('networkidle');
      const card = custodyCard(page);
      await shown(card.getByText(/^Received on \d{1,2} \w+ \d{4}, in good order, a hairline crack/));
      await shown(
        card.getByText(/^Returned on \d{1,2} \w+ \d{4} by courier \(DHL Express\), tracking JD014600006281$/),
      );
      await shown(card.getByText('Insured for €1,200.00'));
      await shown(card.getByText('Returned', { exact: true }));
      // The lab's locations and the hand-over are the lab's.
      expect(await page.getByText('Vault A').count()).toBe(0);
      expect(await page.getByText('Photo studio').count()).toBe(0);
      expect(await card.getByText('Handed to an expert').count()).toBe(0);
      expect(await card.getByRole('button').count()).toBe(0);
      await expectNoSeriousAxeViolations(page);
      await context.close();
    }
  });

  it("an auditor sees every action on the item in the admin's Audit tab, and the chain verifies", async () => {
    const { page, context } = await newPage(e2e.browser, { baseURL: url(), width: 1366, height: 900 });
    await loginAs(page, url(), E2E_ADMIN.email, E2E_ADMIN.password);
    await page.goto(`/admin?tab=audit&auditSubjectType=sample&auditSubjectId=${sampleId}`);
    await visible(page, '5 events');
    const rows = await page.locator('[data-event-id]').allTextContents();
    // Newest first: the return, the hand-over, back on the shelf, taken, the intake; each by the staff
    // member, with the custody before and after and each hand-over's expert.
    expect(rows[0]).toMatch(/custody\.returned.*"custodyState":"with-expert".*"custodyState":"returned"/s);
    expect(rows[0]).toContain('JD014600006281');
    expect(rows[1]).toMatch(/custody\.to_expert.*"location":"Photo studio"/s);
    expect(rows[1]).toContain('"expertName":"Eleanor Vance"');
    expect(rows[2]).toMatch(
      /custody\.to_storage.*After:.*"location":"Vault A".*"custodyState":"in-storage"/s,
    );
    expect(rows[3]).toMatch(/custody\.to_expert.*"expertName":"Eleanor Vance"/s);
    expect(rows[4]).toMatch(/custody\.received.*"custodyState":"awaiting-arrival".*"location":"Vault A"/s);
    for (const row of rows) expect(row).toContain(staff.email);
    await page.getByRole('button', { name: 'Verify chain' }).click();
    await visible(page, 'Chain valid');
    await context.close();
  });

  it("the admin's Inventory and Locations tabs: add, retire, and what is in the lab now", async () => {
    const admin = await loginToken(e2e.product, E2E_ADMIN.email, E2E_ADMIN.password);
    const held = await submitSample(e2e.product, admin);
    const form = new FormData();
    const vault = (
      await callOk<{ id: number; name: string }[]>(e2e.product, 'GET', '/api/admin/locations', {
        token: admin,
      })
    ).find((l) => l.name === 'Vault A')!;
    form.append(
      'intake',
      JSON.stringify({
        receivedAt: new Date().toISOString(),
        itemCount: 1,
        packaging: 'Crate',
        conditionOnArrival: 'As described',
        locationId: vault.id,
      }),
    );
    await callOk(e2e.product, 'POST', `/api/staff/samples/${held}/intake`, { token: admin, form });

    for (const width of [1366, 375]) {
      const { page, context } = await newPage(e2e.browser, { baseURL: url(), width, height: 900 });
      await loginAs(page, url(), E2E_ADMIN.email, E2E_ADMIN.password);
      await page.goto('/admin');
      await page.waitForLoadState('networkidle');
      await selectTab(page, 'Inventory');
      const row = page.locator(`[data-sample-id="${held}"]`);
      await shown(row.getByText('Vault A'));
      await shown(row.getByText('In storage'));
      // The returned item has left the lab.
      expect(await page.locator(`[data-sample-id="${sampleId}"]`).count()).toBe(0);
      await expectNoSeriousAxeViolations(page);

      await selectTab(page, 'Locations');
      if (width === 1366) {
        await page.getByRole('button', { name: 'Add location' }).click();
        const dialog = page.getByRole('dialog');
        await dialog.getByLabel('Name').fill('Safe 2');
        await dialog.getByRole('button', { name: 'Save' }).click();
        await visible(page, 'Location added');
        const safe = page.locator('tr', { hasText: 'Safe 2' });
        await safe.getByRole('button', { name: 'Retire Safe 2' }).click();
        await shown(safe.getByText(/^Retired /));
      }
      await shown(page.locator('tr', { hasText: 'Vault A' }).getByText('In use'));
      await expectNoSeriousAxeViolations(page);
      if (width === 375) {
        // The dialogs at phone width: the return form of the item in the vault.
        await page.goto(`/sample/${held}`);
        await page.waitForLoadState('networkidle');
        await custodyCard(page).getByRole('button', { name: 'Return item' }).click();
        const dialog = page.getByRole('dialog');
        await dialog.getByText('Collected in person', { exact: true }).click();
        await shown(dialog.getByLabel('Collected by'));
        await expectNoSeriousAxeViolations(page);
        await dialog.getByRole('button', { name: 'Cancel' }).click();
        await custodyCard(page).getByRole('button', { name: 'Move' }).click();
        await shown(page.getByRole('dialog').getByLabel('New location'));
        await expectNoSeriousAxeViolations(page);
      }
      await context.close();
    }
  });
});
