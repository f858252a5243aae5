import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPage, expectNoSeriousAxeViolations } from '../support/browser';
import { startE2E, stopE2E } from '../support/e2e';
import { call, loginToken, registerAccount } from '../support/http';
import { E2E_ADMIN, type Product } from '../support/product';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));

let product: Product;
let browser: Browser;
beforeAll(async () => {
  ({ product, browser } = await startE2E());
});
afterAll(() => stopE2E({ product, browser }));

const navLabels = async (page: Page) =>
  (await page.getByRole('navigation', { name: 'Main' }).getByRole('link').allInnerTexts()).map((s) =>
    s.trim(),
  );

async function logInThroughForm(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}

describe('accounts journey', () => {
  it('register → log in → redirected by role → navbar per role → profile with a picture → logout', async () => {
    const { page, context } = await newPage(browser, { baseURL: product.url });
    const email = `client-${Date.now()}@example.com`;
    const password = 'a-good-password';

    // Register: the form's own messages first.
    await page.goto('/register');
    await page.getByRole('heading', { name: 'Create an Account' }).waitFor();
    await page.getByRole('button', { name: 'Sign Up' }).click();
    for (const message of [
      'Invalid email address',
      'Password must be at least 6 characters',
      'First name is required',
      'Last name is required',
    ]) {
      await page.getByText(message, { exact: true }).waitFor();
    }
    for (const name of ['email', 'password', 'firstName', 'lastName']) {
      expect(await page.locator(`form [name="${name}"]`).count(), name).toBe(1);
    }
    await expectNoSeriousAxeViolations(page);

    await page.getByLabel('Email').fill(email);
    await page.getByLabel('First Name').fill('Clara');
    await page.getByLabel('Last Name').fill('Client');
    // Six characters: the form already applies the server's 8-character rule, on the field.
    await page.getByLabel(/^Password/).fill('sixsix');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.getByText('Password must be at least 8 characters', { exact: true }).waitFor();
    expect(await page.getByText('Registration failed').count()).toBe(0);
    expect(page.url()).toMatch(/\/register$/);

    await page.getByLabel(/^Password/).fill(password);
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.getByText('Registered successfully. Please log in.').waitFor();
    await page.waitForURL('**/login');

    // Registering the same e-mail again: the server's message.
    await page.goto('/register');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel(/^Password/).fill(password);
    await page.getByLabel('First Name').fill('Clara');
    await page.getByLabel('Last Name').fill('Again');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.getByText('Registration failed').waitFor();
    // The server's message in the toast and on the Email field.
    expect(await page.getByText('An account with this email already exists').count()).toBe(2);

    // Login: a wrong password shows the server's message in a toast and in the form, above the
    // button (announced), and stays; editing a field clears the one in the form.
    await logInThroughForm(page, email, 'wrong-password');
    const inline = page.locator('form').getByRole('alert');
    await inline.filter({ hasText: 'Invalid email or password' }).waitFor();
    await page
      .locator('.mantine-Notification-root')
      .filter({ hasText: 'Invalid email or password' })
      .waitFor();
    const [alertBox, buttonBox] = await Promise.all([
      inline.boundingBox(),
      page.getByRole('button', { name: 'Login' }).boundingBox(),
    ]);
    expect(alertBox!.y + alertBox!.height).toBeLessThanOrEqual(buttonBox!.y);
    expect(page.url()).toMatch(/\/login$/);
    await expectNoSeriousAxeViolations(page);
    await page.getByLabel(/^Password/).fill('wrong-password-2');
    await inline.waitFor({ state: 'detached' });

    await logInThroughForm(page, email, password);
    await page.getByText('Logged in successfully').waitFor();
    await page.waitForURL((url) => url.pathname === '/');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toMatch(/^ey/);
    await page.getByRole('button', { name: 'Logout' }).waitFor();
    expect(await navLabels(page)).toEqual([
      'Home',
      'About',
      'Services',
      'Verify Report',
      'Contact',
      'Submit Sample',
      'Profile',
      'Dashboard',
    ]);
    // A logged-in visitor is sent away from /login and /register.
    await page.goto('/login');
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/register');
    await page.waitForURL((url) => url.pathname === '/');

    // Profile: every field, the badge, no signature for a customer.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click();
    await page.waitForURL('**/profile');
    await page.getByText('Loaded from database').waitFor();
    expect(await page.getByLabel('Email').inputValue()).toBe(email);
    expect(await page.getByLabel('First Name').inputValue()).toBe('Clara');
    expect(await page.locator('input[name="signature"]').count()).toBe(0);
    for (const name of ['email', 'phone', 'firstName', 'lastName', 'profileImage']) {
      expect(await page.locator(`form [name="${name}"]`).count(), name).toBe(1);
    }
    await expectNoSeriousAxeViolations(page);

    // The form's own checks: e-mail and a file that is not an image.
    await page.getByLabel('Email').fill('');
    await page.getByRole('button', { name: 'Update Profile' }).click();
    await page.getByText('Email is required').waitFor();
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByRole('button', { name: 'Update Profile' }).click();
    await page.getByText('Invalid email format').waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Profile Picture').setInputFiles(fixture('not-an-image.png'));
    // The fixture is named .png, so the browser calls it image/png: the server decides by content.
    await page.getByLabel('Phone').fill(' +44 20 7946 0000 ');
    await page.getByRole('button', { name: 'Update Profile' }).click();
    await page.getByText('Only JPEG or PNG files are allowed').waitFor();

    await page.getByLabel('Profile Picture').setInputFiles(fixture('photo.png'));
    await page.getByRole('button', { name: 'Update Profile' }).click();
    await page.getByText('Profile updated').waitFor();
    const picture = page.getByRole('img', { name: 'Current profile picture' });
    await picture.waitFor();
    expect(await picture.getAttribute('src')).toMatch(/^blob:/);
    expect(
      await picture.evaluate((img: HTMLImageElement) => img.decode().then(() => img.naturalWidth)),
    ).toBeGreaterThan(0);

    // After a reload the saved values and the picture come back from the server.
    await page.reload();
    await page.getByText('Loaded from database').waitFor();
    expect(await page.getByLabel('Phone').inputValue()).toBe('+44 20 7946 0000');
    await page.getByRole('img', { name: 'Current profile picture' }).waitFor();

    // Logout: token gone, back on '/', no 'Unauthorized' from the page being left.
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('link', { name: 'Login' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await page.waitForTimeout(700);
    expect(await page.getByText('Unauthorized').count()).toBe(0);
    expect(page.url()).not.toMatch(/\/login$/);
    await context.close();
  });

  it('sends staff to /staff and admins to /admin, with the lab navigation; staff may upload a signature', async () => {
    // An admin promotes a registered customer to staff.
    const staffEmail = `staff-${Date.now()}@example.com`;
    const { id } = await registerAccount(product, {
      email: staffEmail,
      password: 'staff-password-1',
      firstName: 'Sid',
      lastName: 'Staff',
    });
    const adminToken = await loginToken(product, E2E_ADMIN.email, E2E_ADMIN.password);
    const promoted = await call(product, 'POST', `/api/admin/users/${id}/role`, {
      token: adminToken,
      json: { role: 'staff' },
    });
    expect(promoted.status).toBe(200);

    const staff = await newPage(browser, { baseURL: product.url });
    await logInThroughForm(staff.page, staffEmail, 'staff-password-1');
    await staff.page.waitForURL('**/staff');
    await staff.page.getByRole('button', { name: 'Logout' }).waitFor();
    expect(await navLabels(staff.page)).toEqual(['Profile', 'Dashboard', 'Verify Report']);
    const nav = staff.page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link', { name: 'Dashboard' }).getAttribute('href')).toBe('/staff');

    await nav.getByRole('link', { name: 'Profile' }).click();
    await staff.page.getByText('Loaded from database').waitFor();
    await staff.page.getByLabel('Signature').setInputFiles(fixture('photo.jpg'));
    await staff.page.getByRole('button', { name: 'Update Profile' }).click();
    await staff.page.getByText('Profile updated').waitFor();
    await staff.page.getByRole('img', { name: 'Current signature' }).waitFor();
    await staff.context.close();

    const admin = await newPage(browser, { baseURL: product.url });
    await logInThroughForm(admin.page, E2E_ADMIN.email, E2E_ADMIN.password);
    await admin.page.waitForURL('**/admin');
    await admin.page.getByRole('button', { name: 'Logout' }).waitFor();
    expect(await navLabels(admin.page)).toEqual(['Profile', 'Dashboard', 'Verify Report']);
    expect(
      await admin.page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Dashboard' })
        .getAttribute('href'),
    ).toBe('/admin');
    await admin.context.close();
  });

  it('an expired token in localStorage sends the visitor to /login and is removed', async () => {
    const { page, context } = await newPage(browser, { baseURL: product.url });
    const token = await loginToken(product, E2E_ADMIN.email, E2E_ADMIN.password);
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8'));
    const expired = `${header}.${Buffer.from(JSON.stringify({ ...claims, exp: Math.floor(Date.now() / 1000) - 60 })).toString('base64url')}.${signature}`;
    await page.goto('/about');
    await page.evaluate((t) => localStorage.setItem('token', t), expired);
    await page.goto('/profile');
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await page.getByRole('link', { name: 'Login' }).first().waitFor();

    // A token that does not parse is treated the same way.
    await page.evaluate(() => localStorage.setItem('token', 'garbage'));
    await page.goto('/dashboard');
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await context.close();
  });
});
