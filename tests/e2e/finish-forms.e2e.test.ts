import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ELEMENT_REQUIRED_MESSAGE, ELEMENTS_REQUIRED_MESSAGE } from '../../common/contracts/reports';
import { seriousAxeViolations, sessionPage } from '../support/browser';
import { type E2E, selectTab, startE2E, stopE2E } from '../support/e2e';
import { fixturePath, submitSample } from '../support/factories';
import { callOk, loginToken, registerAccount } from '../support/http';
import { E2E_ADMIN } from '../support/product';

// Fit and finish of the forms (docs/decisions/0012a-web-conventions.md, "Toasts, focus and file
// pickers"): notifications, sign-up, the profile picture, focus and the one file picker.

let e2e: E2E;
const url = () => e2e.product.url;
let adminToken = '';
let staffToken = '';
let customerToken = '';
let sampleId = 0;

const customer = {
  email: 'nora.notes@example.com',
  password: 'client-password-1',
  firstName: 'Nora',
  lastName: 'Notes',
};
const analyst = {
  email: 'otto.analyst@example.com',
  password: 'analyst-password-1',
  firstName: 'Otto',
  lastName: 'Ash',
};

beforeAll(async () => {
  e2e = await startE2E();
  await registerAccount(e2e.product, customer);
  const staffAccount = await registerAccount(e2e.product, analyst);
  adminToken = await loginToken(e2e.product, E2E_ADMIN.email, E2E_ADMIN.password);
  await callOk(e2e.product, 'POST', `/api/admin/users/${staffAccount.id}/role`, {
    token: adminToken,
    json: { role: 'staff' },
  });
  staffToken = await loginToken(e2e.product, analyst.email, analyst.password);
  customerToken = await loginToken(e2e.product, customer.email, customer.password);
  sampleId = await submitSample(e2e.product, customerToken);
  await callOk(e2e.product, 'POST', `/api/admin/samples/${sampleId}/assign`, {
    token: adminToken,
    json: { staffId: staffAccount.id },
  });
});
afterAll(() => stopE2E(e2e));

const session = (token: string | null, width = 1366, height = 900) =>
  sessionPage(e2e.browser, { baseURL: url(), token, width, height });

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

const toasts = (page: Page) => page.locator('.mantine-Notification-root');

/** No toast on screen covers any of `targets`. */
async function expectToastsClear(page: Page, targets: Locator[]) {
  const boxes = await Promise.all(targets.map((t) => t.boundingBox()));
  for (const toast of await toasts(page).all()) {
    const box = await toast.boundingBox();
    if (!box) continue;
    for (const [i, target] of boxes.entries()) {
      expect(target, `target ${i}`).not.toBeNull();
      expect(overlaps(box, target!), `toast covers target ${i}`).toBe(false);
    }
  }
}

/** The focused element and its label are below the sticky header and inside the viewport. */
async function expectFocusVisible(page: Page) {
  const place = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const header = document.querySelector('header')!.getBoundingClientRect();
    const label = (el as HTMLInputElement).labels?.[0]?.getBoundingClientRect();
    return {
      tag: el.tagName,
      top: Math.min(el.getBoundingClientRect().top, label?.top ?? Number.POSITIVE_INFINITY),
      bottom: el.getBoundingClientRect().bottom,
      headerBottom: header.bottom,
      viewport: window.innerHeight,
    };
  });
  expect(place.tag).not.toBe('BODY');
  expect(place.top).toBeGreaterThanOrEqual(place.headerBottom);
  expect(place.bottom).toBeLessThanOrEqual(place.viewport);
}

async function expectNoSeriousAxe(page: Page) {
  expect((await seriousAxeViolations(page)).map((v) => `${v.id}: ${v.help}`)).toEqual([]);
}

const reportButton = (page: Page) =>
  page.locator(`tr[data-sample-id="${sampleId}"]`).getByRole('button', { name: /^Generate Report for/ });

describe('fit and finish: forms', () => {
  it('6. toasts stay clear of the navigation and the dialog fields, three at most, errors cleared by a success, errors beside their field', async () => {
    const { page, context } = await session(staffToken);
    await page.goto('/staff');
    await reportButton(page).click();
    const dialog = page.getByRole('dialog', { name: 'Generate Analysis Report' });
    await dialog.getByLabel('Element Name').waitFor();

    // Nothing to send: the message is in the dialog, not only in a toast.
    await dialog.getByRole('button', { name: 'Generate PDF Report' }).click();
    await dialog.getByText(ELEMENTS_REQUIRED_MESSAGE).waitFor();

    for (let i = 0; i < 5; i++) await dialog.getByRole('button', { name: 'Add Element' }).click();
    await dialog.getByText(ELEMENT_REQUIRED_MESSAGE).first().waitFor();
    expect(await dialog.getByLabel('Element Name').getAttribute('aria-invalid')).toBe('true');
    await toasts(page).first().waitFor();
    await page.waitForTimeout(400);
    expect(await toasts(page).count()).toBeLessThanOrEqual(3);
    await expectToastsClear(page, [
      page.locator('header').first(),
      dialog.getByLabel('Element Name'),
      dialog.getByLabel('Percentage'),
      dialog.locator('input[id$="-quality"]'),
      dialog.getByRole('button', { name: 'Generate PDF Report' }),
      // The dialog's whole box: a toast at the bottom right used to cover its right edge.
      dialog,
    ]);

    // A success clears the stale errors.
    await dialog.getByLabel('Element Name').fill('Silver');
    await dialog.getByLabel('Percentage').fill('92.5');
    await dialog.getByRole('button', { name: 'Add Element' }).click();
    await page.getByText('Element Added').waitFor();
    await page.waitForFunction(
      () => document.querySelectorAll('.mantine-Notification-root[role="alert"]').length === 0,
      null,
      { timeout: 3000 },
    );
    await expectNoSeriousAxe(page);
    await context.close();

    // At 375 px a toast does not cover the navigation bar either.
    const m = await session(null, 375, 740);
    await m.page.goto('/login');
    await m.page.getByLabel('Email').fill(customer.email);
    await m.page.getByLabel(/^Password/).fill('wrong-password');
    await m.page.getByRole('button', { name: 'Login' }).click();
    await m.page.getByText('Invalid email or password').first().waitFor();
    await m.page.waitForTimeout(400);
    await expectToastsClear(m.page, [m.page.locator('header').first(), m.page.getByLabel('Email')]);
    await m.context.close();
  });

  it('8. the sign-up form accepts only what the server accepts, then /login has the e-mail and no old failure', async () => {
    const { page, context } = await session(null, 375, 740);
    const registerCalls: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/register')) registerCalls.push(r.method());
    });
    await page.goto('/register');
    const password = page.getByLabel(/^Password/);
    await page.getByText('Use at least 8 characters.').waitFor();
    await page.getByLabel('Email').fill(customer.email);
    await page.getByLabel('First Name').fill('Nora');
    await page.getByLabel('Last Name').fill('Again');
    await password.fill('abc');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    const form = page.locator('form');
    await form.getByText('Password must be at least 6 characters', { exact: true }).waitFor();
    await password.fill('seven77');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await form.getByText('Password must be at least 8 characters', { exact: true }).waitFor();
    await page.waitForTimeout(300);
    expect(registerCalls).toEqual([]);
    expect(await page.getByText('Registration failed').count()).toBe(0);

    // A refused registration (e-mail taken), then a good one.
    await password.fill('a-good-password');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await form.getByText('An account with this email already exists').waitFor();
    const email = `new-${Date.now()}@example.com`;
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.waitForURL('**/login');
    await page.getByText('Registered successfully. Please log in.').waitFor();
    expect(await page.getByLabel('Email').inputValue()).toBe(email);
    await page.waitForFunction(() => !document.body.innerText.includes('Registration failed'), null, {
      timeout: 3000,
    });
    // The focus lands on the password field, but not always in the frame that shows the notice: on a
    // loaded machine <body> held it for a few hundred milliseconds first (two CI runs failed on an
    // immediate check; the cause in the page is not found yet). It must arrive within 5 s.
    await expect
      .poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement).name), { timeout: 5000 })
      .toBe('password');
    await expectNoSeriousAxe(page);
    await context.close();
  });

  it('9. a refused picture blocks the save until removed; a preview before saving; the picture in the navigation bar', async () => {
    const { page, context } = await session(customerToken, 375, 800);
    const saves: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/users/profile') && r.method() === 'PUT') saves.push(r.url());
    });
    await page.goto('/profile');
    await page.getByText('Loaded from database').waitFor();
    await page.getByLabel('Profile Picture').setInputFiles(fixturePath('document.pdf'));
    await page.getByText('Only JPEG or PNG files are allowed').first().waitFor();
    await page.getByRole('button', { name: 'Update Profile' }).click();
    await page.waitForTimeout(500);
    expect(saves).toEqual([]);
    expect(await page.getByText('Profile updated').count()).toBe(0);
    expect(await page.getByLabel('Profile Picture').evaluate((el) => el === document.activeElement)).toBe(
      true,
    );

    await page.getByRole('button', { name: 'Remove document.pdf' }).click();
    expect(await page.locator('form').getByText('Only JPEG or PNG files are allowed').count()).toBe(0);
    await page.getByLabel('Profile Picture').setInputFiles(fixturePath('photo.png'));
    const preview = page.getByRole('img', { name: 'photo.png', exact: true });
    await preview.waitFor();
    expect(
      await preview.evaluate((img: HTMLImageElement) => img.decode().then(() => img.naturalWidth)),
    ).toBeGreaterThan(0);
    await expectNoSeriousAxe(page);

    await page.getByRole('button', { name: 'Update Profile' }).click();
    await page.getByText('Profile updated').waitFor();
    expect(saves).toHaveLength(1);
    const avatar = page.locator('header').getByRole('img', { name: 'Your profile picture' });
    await avatar.waitFor();
    expect(
      await avatar.evaluate((img: HTMLImageElement) => img.decode().then(() => img.naturalWidth)),
    ).toBeGreaterThan(0);
    await context.close();
  });

  it('11. focus lands below the sticky header; Escape on a dialog returns focus to its opener', async () => {
    for (const width of [375, 1366]) {
      const { page, context } = await session(null, width, 740);
      await page.goto('/contact');
      const send = page.getByRole('button', { name: 'Send Message' });
      await send.scrollIntoViewIfNeeded();
      await send.click();
      await page.getByText('First name is required').waitFor();
      expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).name)).toBe('firstName');
      await expectFocusVisible(page);

      await page.getByLabel('First Name').fill('Nora');
      await page.getByLabel('Last Name').fill('Notes');
      await page.getByLabel('Email').fill('nora@example.com');
      await page.getByLabel('Subject').selectOption({ index: 1 });
      await page.getByLabel(/^Message/).fill('Could you value a silver teapot?');
      await send.scrollIntoViewIfNeeded();
      await page.evaluate(() => window.scrollBy(0, 400));
      await send.click();
      await page.getByRole('heading', { name: 'Message Sent Successfully!' }).waitFor();
      await page.waitForFunction(() => document.activeElement?.tagName === 'H2');
      await expectFocusVisible(page);
      await context.close();
    }

    for (const width of [1366, 375]) {
      const { page, context } = await session(staffToken, width, 800);
      await page.goto('/staff');
      const opener = reportButton(page);
      await opener.click();
      const dialog = page.getByRole('dialog', { name: 'Generate Analysis Report' });
      await dialog.getByLabel('Element Name').waitFor();
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await page.waitForFunction(() => document.activeElement !== document.body, null, { timeout: 3000 });
      expect(await opener.evaluate((el) => el === document.activeElement)).toBe(true);
      await context.close();
    }
  });

  it('12. one styled file picker: no raw browser control, keyboard operable, on submit, profile and the admin logo', async () => {
    const { page, context } = await session(customerToken, 375, 800);
    // Playwright switches the browser's file-chooser interception on when a page gets its first
    // 'filechooser' listener and off when the last one goes, without waiting for the browser; a
    // chooser opened in that gap goes to headless Chromium's own invisible dialog and the event never
    // comes. One listener for the page's whole life keeps interception on before anything is pressed.
    page.on('filechooser', () => {});
    await page.goto('/submit-sample');
    const zone = page.getByTestId('photos-dropzone');
    await zone.waitFor();
    const input = page.locator('input[name="photos"]');
    // The browser's own control ("Choose Files / No file chosen") is not drawn.
    const inputBox = await input.boundingBox();
    expect(inputBox === null || inputBox.width <= 1).toBe(true);
    await zone.getByText('Choose photos', { exact: true }).waitFor();
    // Keyboard: the input takes the focus (shown on the zone) and opens the chooser.
    await page.waitForLoadState('networkidle');
    await input.focus();
    expect(await input.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await zone.evaluate((el) => getComputedStyle(el).outlineStyle)).not.toBe('none');
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.keyboard.press('Enter')]);
    await chooser.setFiles([fixturePath('photo.jpg'), fixturePath('photo.png')]);
    await page.getByRole('button', { name: 'Remove photo.png' }).waitFor();
    // A click anywhere on the zone opens it too.
    const [again] = await Promise.all([
      page.waitForEvent('filechooser'),
      zone.getByText('Choose photos', { exact: true }).click(),
    ]);
    expect(again.isMultiple()).toBe(true);
    await expectNoSeriousAxe(page);
    await context.close();

    const p = await session(customerToken, 1366, 900);
    await p.page.goto('/profile');
    const pictureZone = p.page.getByTestId('profileImage-dropzone');
    await pictureZone.waitFor();
    const pictureBox = await p.page.locator('input[name="profileImage"]').boundingBox();
    expect(pictureBox === null || pictureBox.width <= 1).toBe(true);
    await p.context.close();

    const a = await session(adminToken, 1366, 900);
    await a.page.goto('/admin');
    await selectTab(a.page, 'Settings');
    const logoZone = a.page.getByTestId('logo-dropzone');
    await logoZone.waitFor();
    await a.page.locator('input[name="logo"]').setInputFiles(fixturePath('photo.png'));
    await logoZone.page().getByRole('img', { name: 'photo.png', exact: true }).waitFor();
    await expectNoSeriousAxe(a.page);
    await a.context.close();
  });
});
