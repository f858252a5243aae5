import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode, totpStep } from '../../server/modules/accounts/totp';
import { loginAs, newPage, expectNoSeriousAxeViolations } from '../support/browser';
import { selectTab, shot, startE2E, stopE2E, visible } from '../support/e2e';
import { call, callOk, loginToken, registerAccount } from '../support/http';
import { E2E_ADMIN, type Product } from '../support/product';
import { clearOfTotpStepEnd } from '../support/totp';

// Two-factor sign-in from the screens (docs/product/accounts-and-sessions.md).
let product: Product;
let browser: Browser;
beforeAll(async () => {
  ({ product, browser } = await startE2E());
});
afterAll(() => stopE2E({ product, browser }));

const codeAt = (secret: string, offset = 0) => totpCode(secret, totpStep(Date.now()) + offset);

async function passwordStep(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
}

async function codeStep(page: Page, code: string) {
  await page.getByLabel(/^Authentication code/).fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
}

/** Sets up two-factor sign-in on the open profile; answers the key read from the screen and the recovery codes. */
async function enrolOnProfile(page: Page, password: string, shots?: string) {
  await page.locator('#two-factor').scrollIntoViewIfNeeded();
  const start = page.getByRole('form', { name: 'Set up two-factor sign-in' });
  // The current password is asked first: a wrong one is refused beside its field.
  await start.getByLabel(/^Password/).fill('not-my-password');
  await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
  await visible(page, 'Password is incorrect');
  await start.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
  const secret = (await page.getByTestId('totp-secret').innerText()).trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await page.getByRole('img', { name: 'QR code to scan with your authenticator app' }).waitFor();
  if (shots) await expectNoSeriousAxeViolations(page);
  // Typing and pressing Turn on take longer than an API call: a wider margin.
  await clearOfTotpStepEnd(10_000);
  await page.getByLabel(/^Code from the app/).fill(codeAt(secret, -1));
  await page.getByRole('button', { name: 'Turn on' }).click();
  const list = page.getByTestId('recovery-codes');
  await list.waitFor();
  const recoveryCodes = (await list.getByRole('listitem').allInnerTexts()).map((s) => s.trim());
  expect(recoveryCodes).toHaveLength(10);
  if (shots) {
    await expectNoSeriousAxeViolations(page);
    await shot(page, `${shots}-recovery`);
  }
  await page.getByRole('button', { name: 'I have saved them' }).click();
  await visible(page, 'On');
  return { secret, recoveryCodes };
}

describe('two-factor sign-in', () => {
  it('enrol in the profile → sign out → sign in with an app code → a recovery code works once', async () => {
    const email = `twofa-${Date.now()}@example.com`;
    const password = 'a-good-password';
    await registerAccount(product, { email, password, firstName: 'Tess', lastName: 'Factor' });
    const { page, context } = await newPage(browser, { baseURL: product.url });
    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel(/^Password/).fill(password);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    await page.goto('/profile');
    const { secret, recoveryCodes: first } = await enrolOnProfile(page, password, 'twofa-1366');
    // New recovery codes, with the password: the first ones stop working.
    const renew = page.getByRole('form', { name: 'Make new recovery codes' });
    await renew.getByLabel(/^Password/).fill(password);
    await page.getByRole('button', { name: 'Make new recovery codes' }).click();
    const list = page.getByTestId('recovery-codes');
    await list.waitFor();
    const recoveryCodes = (await list.getByRole('listitem').allInnerTexts()).map((s) => s.trim());
    expect(recoveryCodes).toHaveLength(10);
    expect(recoveryCodes).not.toContain(first[0]);
    await expectNoSeriousAxeViolations(page);
    // They can be kept: downloaded as a text file holding every code, copied, printed.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('recovery-codes.txt');
    const saved = readFileSync((await download.path()) ?? '', 'utf8');
    for (const code of recoveryCodes) expect(saved).toContain(code);
    expect(saved).toContain(email);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('button', { name: 'Copy codes' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    for (const code of recoveryCodes) expect(copied).toContain(code);
    await page.getByRole('button', { name: 'Print' }).click();
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByRole('button', { name: 'Logout' }).click();
    await context.close();

    // Password, then the code computed here from the key read off the screen.
    const second = await newPage(browser, { baseURL: product.url });
    await passwordStep(second.page, email, password);
    await expectNoSeriousAxeViolations(second.page);
    await shot(second.page, 'twofa-step-1366', { fullPage: false });
    await codeStep(second.page, codeAt(secret, 1));
    await second.page.waitForURL((url) => !url.pathname.startsWith('/login'));
    await second.context.close();

    const recovery = recoveryCodes[0] ?? '';
    const third = await newPage(browser, { baseURL: product.url, width: 375, height: 800 });
    await passwordStep(third.page, email, password);
    await shot(third.page, 'twofa-step-375', { fullPage: false });
    await codeStep(third.page, recovery);
    await third.page.waitForURL((url) => !url.pathname.startsWith('/login'));
    await third.context.close();

    const fourth = await newPage(browser, { baseURL: product.url });
    await passwordStep(fourth.page, email, password);
    await codeStep(fourth.page, recovery);
    await visible(fourth.page, 'The code is not valid. Please try again.');
    expect(new URL(fourth.page.url()).pathname).toBe('/login');
    await fourth.context.close();
  });

  it("an admin resets a customer's two-factor sign-in from the Staff tab, after a confirmation", async () => {
    const email = `lost-phone-${Date.now()}@example.com`;
    const password = 'a-good-password';
    await registerAccount(product, { email, password, firstName: 'Lou', lastName: 'Phoneless' });
    const token = await loginToken(product, email, password);
    const setup = await callOk<{ secret: string }>(product, 'POST', '/api/auth/2fa/totp/setup', {
      token,
      json: { password },
    });
    await clearOfTotpStepEnd();
    await callOk(product, 'POST', '/api/auth/2fa/totp/enable', {
      token,
      json: { password, code: codeAt(setup.secret, -1) },
    });

    for (const width of [1366, 375]) {
      const { page, context } = await newPage(browser, { baseURL: product.url, width, height: 900 });
      await loginAs(page, product.url, E2E_ADMIN.email, E2E_ADMIN.password);
      await page.goto('/admin');
      await page.waitForLoadState('networkidle');
      await selectTab(page, 'Staff');
      await page.getByLabel('Search accounts').fill(email);
      const row = page.locator('tr', { hasText: email });
      const reset = row.getByRole('button', { name: 'Reset two-factor sign-in of Lou Phoneless' });
      if (width === 375) {
        // Reset already at 1366: the row says Off and offers no button.
        await row.getByText('Off', { exact: true }).waitFor();
        expect(await reset.count()).toBe(0);
        await expectNoSeriousAxeViolations(page);
        await shot(page, 'twofa-admin-reset-375');
        await context.close();
        continue;
      }
      await reset.click();
      const dialog = page.getByRole('dialog', { name: 'Reset two-factor sign-in of Lou Phoneless?' });
      await dialog.waitFor();
      await page.waitForFunction(
        () => getComputedStyle(document.querySelector('[role="dialog"]') as Element).opacity === '1',
      );
      await expectNoSeriousAxeViolations(page);
      await shot(page, 'twofa-admin-reset-1366', { fullPage: false });
      await dialog.getByRole('button', { name: 'Reset two-factor sign-in' }).click();
      await visible(page, 'Two-factor sign-in reset');
      await row.getByText('Off', { exact: true }).waitFor();
      await context.close();
    }
    // The password alone signs in again.
    const res = await call(product, 'POST', '/login', { json: { email, password } });
    expect(res.body).toHaveProperty('token');
  });

  it('with require2faForStaff on, a staff member is led to set it up before the staff screens', async () => {
    const email = `staff-2fa-${Date.now()}@example.com`;
    const password = 'a-good-password';
    const staff = await registerAccount(product, { email, password, firstName: 'Stan', lastName: 'Staff' });
    const adminToken = await loginToken(product, E2E_ADMIN.email, E2E_ADMIN.password);
    await callOk(product, 'POST', `/api/admin/users/${staff.id}/role`, {
      token: adminToken,
      json: { role: 'staff' },
    });
    const form = new FormData();
    form.append(
      'settings',
      JSON.stringify({ labName: 'Heritage Valuation Laboratory', require2faForStaff: true }),
    );
    expect((await call(product, 'POST', '/api/lab/settings', { token: adminToken, form })).status).toBe(200);

    const { page, context } = await newPage(browser, { baseURL: product.url, width: 375, height: 800 });
    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel(/^Password/).fill(password);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL((url) => url.pathname === '/profile');
    await visible(page, 'Required by the lab');
    await shot(page, 'twofa-required-375');
    await enrolOnProfile(page, password);
    await page.goto('/staff');
    await page.waitForTimeout(500);
    expect(new URL(page.url()).pathname).toBe('/staff');
    await context.close();
  });
});
