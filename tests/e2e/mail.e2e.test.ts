import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORGOT_PASSWORD_ANSWER } from '../../common/contracts/accounts';
import { UNSUBSCRIBED_MESSAGE } from '../../common/contracts/mail';
import { downloadCsv, loginAs, newPage, expectNoSeriousAxeViolations } from '../support/browser';
import { type E2E, selectTab, startE2E, stopE2E, visible } from '../support/e2e';
import { call, callOk, loginToken, registerAccount } from '../support/http';
import { submitSample } from '../support/factories';
import { E2E_ADMIN } from '../support/product';
import { type ReceivedMail, startTestSmtp, type TestSmtp } from '../support/smtp';

// The mail journeys in the browser, with the product delivering to a real SMTP server in this
// process (docs/product/mail.md, accounts-and-sessions.md): reset, confirmation, password change,
// signing out, unsubscribing, inquiry replies, the Outbox and its Retry, deactivation.

let smtp: TestSmtp;
let e2e: E2E;
const url = () => e2e.product.url;

beforeAll(async () => {
  smtp = await startTestSmtp();
  // A failed delivery would next be tried in 10 minutes: only the Outbox's Retry can deliver it sooner.
  e2e = await startE2E({ SMTP_URL: smtp.url, JOBS_RETRY_FIRST_SECONDS: '600' });
}, 180_000);
afterAll(async () => {
  await stopE2E(e2e);
  await smtp?.close();
});

let serial = 0;
async function newCustomer(prefix: string) {
  const account = {
    email: `${prefix}-${Date.now()}-${++serial}@example.com`,
    password: 'first-password-1',
    firstName: 'Mara',
    lastName: 'Mailer',
  };
  await registerAccount(e2e.product, account);
  return account;
}

/** The one mail to `to` whose subject matches, waited for; its link on `path` (absolute, on PUBLIC_URL). */
async function mailTo(to: string, subject: RegExp, opts: { count?: number } = {}): Promise<ReceivedMail> {
  const found = await smtp.waitFor((m) => m.to.includes(to) && subject.test(m.subject), opts);
  return found[found.length - 1] as ReceivedMail;
}
function linkIn(mail: ReceivedMail, path: string): string {
  const link = mail.links.find((l) => l.startsWith(`${url()}${path}`));
  if (!link) throw new Error(`no ${path} link in "${mail.subject}": ${mail.links.join(' ')}`);
  return link;
}

const userStatus = async (token: string) =>
  (await call(e2e.product, 'GET', '/api/auth/user', { token })).status;

describe('password reset', () => {
  it('Forgot password? → the mailed link → a new password → log in; the old session and the link are dead', async () => {
    const customer = await newCustomer('reset');
    // A session from before the reset, in another browser.
    const { page: other } = await newPage(e2e.browser, { baseURL: url() });
    const oldToken = await loginAs(other, url(), customer.email, customer.password);
    await other.goto('/profile');
    await visible(other, 'Loaded from database');

    const { page } = await newPage(e2e.browser, { baseURL: url() });
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL('**/forgot-password');
    await page.getByRole('heading', { name: 'Forgot password?' }).waitFor();
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await visible(page, 'Invalid email address');
    await expectNoSeriousAxeViolations(page);

    // An unknown address gets the very same answer, and no mail.
    await page.getByLabel('Email').fill(`nobody-${Date.now()}@example.com`);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await visible(page, FORGOT_PASSWORD_ANSWER);
    await page.getByRole('button', { name: 'try another address' }).click();
    await page.getByLabel('Email').fill(customer.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await visible(page, FORGOT_PASSWORD_ANSWER);
    await expectNoSeriousAxeViolations(page);

    const resetMail = await mailTo(customer.email, /^Reset your .* password$/);
    const link = linkIn(resetMail, '/reset-password?token=');
    await page.goto(link);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await page.getByLabel(/^New password/).fill('brand-new-password');
    await page.getByLabel(/^Repeat the new password/).fill('brand-new-passwort');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await visible(page, 'The passwords do not match');
    await expectNoSeriousAxeViolations(page);
    await page.getByLabel(/^Repeat the new password/).fill('brand-new-password');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await visible(page, 'Your password has been changed. You can now log in.');
    await page.waitForURL('**/login');

    // The old password is refused, the new one works.
    expect((await call(e2e.product, 'POST', '/login', { json: customer })).status).toBe(401);
    await page.getByLabel('Email').fill(customer.email);
    await page.getByLabel(/^Password/).fill('brand-new-password');
    await page.getByRole('button', { name: 'Login' }).click();
    await visible(page, 'Logged in successfully');

    // The session from before the reset has ended: its next request is refused and it is sent to /login.
    expect(await userStatus(oldToken)).toBe(401);
    await other.reload();
    await other.waitForURL('**/login');

    // The link works once.
    const { page: again } = await newPage(e2e.browser, { baseURL: url() });
    await again.goto(link);
    await again.getByLabel(/^New password/).fill('third-password-1');
    await again.getByLabel(/^Repeat the new password/).fill('third-password-1');
    await again.getByRole('button', { name: 'Set new password' }).click();
    await visible(again, 'This reset link is invalid or has expired. Please ask for a new one.');
    await again.getByRole('link', { name: 'Ask for a new link' }).waitFor();
    expect(smtp.to(customer.email).filter((m) => /password was changed/.test(m.subject))).toHaveLength(1);
  });
});

describe('the profile', () => {
  it('confirms the address, turns status mails off, changes the password, changes the e-mail, signs out everywhere', async () => {
    const customer = await newCustomer('profile');
    const elsewhere = await loginToken(e2e.product, customer.email, customer.password);
    const { page } = await newPage(e2e.browser, { baseURL: url() });
    await loginAs(page, url(), customer.email, customer.password);
    await page.goto('/profile');
    await visible(page, 'E-mail address not confirmed');
    await expectNoSeriousAxeViolations(page);

    // Send the link again → the new link confirms the address.
    await page.getByRole('button', { name: 'Send the link again' }).click();
    await visible(page, 'We have sent a new confirmation link to your e-mail address.');
    const resent = await mailTo(customer.email, /^Confirm your e-mail address/);
    await page.goto(linkIn(resent, '/verify-email?token='));
    await visible(page, 'Your e-mail address is confirmed.');
    await expectNoSeriousAxeViolations(page);
    await page.getByRole('link', { name: 'Back to your profile' }).click();
    await visible(page, 'E-mail address confirmed');

    // Status mails off.
    const statusSwitch = page.getByRole('switch', { name: "E-mail me when my sample's status changes" });
    expect(await statusSwitch.isChecked()).toBe(true);
    await statusSwitch.click({ force: true });
    await visible(page, 'Status e-mails off');
    const me = await callOk<{ notifyStatusChanges: boolean }>(e2e.product, 'GET', '/api/auth/user', {
      token: elsewhere,
    });
    expect(me.notifyStatusChanges).toBe(false);

    // Password change: the wrong current password is refused on its field.
    await page.getByLabel(/^Current password/).fill('not-my-password');
    await page.getByLabel(/^New password/).fill('changed-password-1');
    await page.getByLabel(/^Repeat the new password/).fill('changed-password-1');
    await page.getByRole('button', { name: 'Change password' }).click();
    await visible(page, 'Current password is incorrect');
    await page.getByLabel(/^Current password/).fill(customer.password);
    await page.getByRole('button', { name: 'Change password' }).click();
    await visible(page, 'Other devices have been signed out.');
    // This browser stays signed in with the fresh token; the other session has ended.
    const fresh = await page.evaluate(() => localStorage.getItem('token'));
    expect(await userStatus(fresh ?? '')).toBe(200);
    expect(await userStatus(elsewhere)).toBe(401);
    await page.reload();
    await visible(page, 'Loaded from database');
    await mailTo(customer.email, /password was changed$/);

    // A new e-mail address asks for the current password; the old address is told.
    const newEmail = `moved-${Date.now()}@example.com`;
    expect(await page.getByLabel(/^Current password/).count()).toBe(1);
    await page.locator('form[aria-labelledby="profile-title"] [name="email"]').fill(newEmail);
    const currentForEmail = page.locator('form[aria-labelledby="profile-title"] [name="currentPassword"]');
    await currentForEmail.waitFor();
    await page.getByRole('button', { name: 'Update Profile' }).click();
    await visible(page, 'Enter your current password to change your e-mail address');
    await currentForEmail.fill('changed-password-1');
    await page.getByRole('button', { name: 'Update Profile' }).click();
    await visible(page, 'Your profile has been saved. We have sent a confirmation link to your new address.');
    await mailTo(customer.email, /was changed$/, { count: 2 });
    await mailTo(newEmail, /^Confirm your e-mail address/);
    await visible(page, 'E-mail address not confirmed');
    await expectNoSeriousAxeViolations(page);

    // Sign out everywhere: asked first, then every token, this one too, is dead.
    const second = await loginToken(e2e.product, newEmail, 'changed-password-1');
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign out everywhere?' });
    await dialog.waitFor();
    // axe measures contrast as painted: wait until the dialog has faded in.
    await page.waitForFunction(
      () => getComputedStyle(document.querySelector('[role="dialog"]') as Element).opacity === '1',
    );
    await expectNoSeriousAxeViolations(page);
    await dialog.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await page.getByRole('link', { name: 'Login' }).first().waitFor();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    expect(await userStatus(fresh ?? '')).toBe(401);
    expect(await userStatus(second)).toBe(401);
  });

  it('Log out ends the token on the server, not only in this browser', async () => {
    const customer = await newCustomer('logout');
    const { page } = await newPage(e2e.browser, { baseURL: url() });
    const token = await loginAs(page, url(), customer.email, customer.password);
    await page.goto('/dashboard');
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    expect(await userStatus(token)).toBe(401);
  });
});

describe('status mails', () => {
  it("the status mail's unsubscribe link turns them off without signing in", async () => {
    const customer = await newCustomer('unsub');
    const token = await loginToken(e2e.product, customer.email, customer.password);
    const sampleId = await submitSample(e2e.product, token);
    const admin = await loginToken(e2e.product, E2E_ADMIN.email, E2E_ADMIN.password);
    await callOk(e2e.product, 'POST', `/api/staff/samples/${sampleId}/status`, {
      token: admin,
      json: { status: 'in-progress', comment: '' },
    });
    const status = await mailTo(customer.email, /is now "/);
    const { page } = await newPage(e2e.browser, { baseURL: url() });
    await page.goto(linkIn(status, '/unsubscribe?token='));
    await visible(page, UNSUBSCRIBED_MESSAGE);
    await expectNoSeriousAxeViolations(page);
    const me = await callOk<{ notifyStatusChanges: boolean }>(e2e.product, 'GET', '/api/auth/user', {
      token,
    });
    expect(me.notifyStatusChanges).toBe(false);

    // A made-up link changes nothing and says so.
    await page.goto('/unsubscribe?token=1.forged-forged-forged-forged-forged');
    await visible(page, 'This unsubscribe link is not valid.');
  });
});

describe('the admin dashboard', () => {
  async function openAdminTab(page: Page, tab: string) {
    await loginAs(page, url(), E2E_ADMIN.email, E2E_ADMIN.password);
    await page.goto('/admin');
    await selectTab(page, tab);
  }

  it('replies to an inquiry: the reply is mailed, the inquiry is responded and exported as CSV, the mail is readable in the Outbox', async () => {
    const sender = `asker-${Date.now()}@example.com`;
    await callOk(e2e.product, 'POST', '/api/contact', {
      json: {
        firstName: 'Quinn',
        lastName: 'Question',
        email: sender,
        subject: 'general-inquiry',
        message: 'Do you value pocket watches?',
      },
    });
    const { page } = await newPage(e2e.browser, { baseURL: url(), width: 1366 });
    await openAdminTab(page, 'Inquiries');
    await page.getByRole('button', { name: 'Reply to Quinn Question' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Reply to Quinn Question' });
    await dialog.getByRole('button', { name: 'Send reply' }).click();
    await visible(page, 'Reply is required');
    await expectNoSeriousAxeViolations(page);
    await dialog.getByLabel(/^Your reply/).fill('Yes, we do. Bring it on any weekday.');
    await dialog.getByRole('button', { name: 'Send reply' }).click();
    await visible(page, `Mailed to ${sender}`);
    const row = page.locator('tr', { hasText: sender });
    await row.getByText('responded', { exact: true }).waitFor();

    const reply = await mailTo(sender, /^Re: /);
    expect(reply.text).toContain('Yes, we do. Bring it on any weekday.');

    // Export CSV downloads every inquiry, this one with its status and the reply sent.
    const { fileName, rows: exported } = await downloadCsv(page, 'Export CSV');
    expect(fileName).toMatch(/^contact-inquiries-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(exported.filter((r) => r['E-mail'] === sender)).toMatchObject([
      {
        'First name': 'Quinn',
        'Last name': 'Question',
        Message: 'Do you value pocket watches?',
        Status: 'responded',
        Reply: 'Yes, we do. Bring it on any weekday.',
      },
    ]);

    await selectTab(page, 'Outbox');
    const mailRow = page.locator('tr', { hasText: sender }).filter({ hasText: 'Re: ' });
    await mailRow.getByText('sent', { exact: true }).waitFor();
    await expectNoSeriousAxeViolations(page);
    await mailRow.getByRole('button', { name: /^View/ }).click();
    const frame = page.frameLocator('iframe[title^="Message: Re: "]');
    await frame.getByText('Yes, we do. Bring it on any weekday.').waitFor();
    await selectTab(page, 'Plain text');
    await visible(page, /Yes, we do\. Bring it on any weekday\./);
    await expectNoSeriousAxeViolations(page);
  });

  it('Outbox: a mail the SMTP server refused is delivered by Retry', async () => {
    const customer = await newCustomer('retry');
    const admin = await loginToken(e2e.product, E2E_ADMIN.email, E2E_ADMIN.password);
    await mailTo(customer.email, /^Welcome to /);
    smtp.setDown(true);
    try {
      await callOk(e2e.product, 'POST', '/api/auth/forgot-password', { json: { email: customer.email } });
      // The first attempt fails (451); the next one would be 10 minutes later.
      for (let i = 0; ; i++) {
        const list = await callOk<{
          mails: { toAddress: string; subject: string; lastError: string | null }[];
        }>(e2e.product, 'GET', '/api/admin/mail/outbox?pageSize=50', { token: admin });
        if (list.mails.some((m) => m.toAddress === customer.email && /^Reset/.test(m.subject) && m.lastError))
          break;
        if (i > 200) throw new Error('the refused attempt never showed up in the Outbox');
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      smtp.setDown(false);
    }
    expect(smtp.to(customer.email).filter((m) => /^Reset your/.test(m.subject))).toHaveLength(0);

    const { page } = await newPage(e2e.browser, { baseURL: url(), width: 1366 });
    await openAdminTab(page, 'Outbox');
    const row = page.locator('tr', { hasText: customer.email }).filter({ hasText: 'Reset your' });
    // In the Last error cell: the address is made of a time stamp and may itself contain "451".
    await row.locator('td[data-label="Last error"]', { hasText: /\b451\b/ }).waitFor();
    await row.getByText('pending', { exact: true }).waitFor();
    await expectNoSeriousAxeViolations(page);
    await row.getByRole('button', { name: /^Retry/ }).click();
    await visible(page, 'Mail queued again');
    await mailTo(customer.email, /^Reset your/);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await row.getByText('sent', { exact: true }).waitFor();
    expect(await row.getByRole('button', { name: /^Retry/ }).count()).toBe(0);
  });

  it('Staff tab: deactivate (asked first) ends the sessions and login; reactivate; never oneself', async () => {
    const customer = await newCustomer('deactivate');
    const token = await loginToken(e2e.product, customer.email, customer.password);
    const { page } = await newPage(e2e.browser, { baseURL: url(), width: 1366 });
    await openAdminTab(page, 'Staff');
    const own = page.locator('tr', { hasText: E2E_ADMIN.email });
    await own.getByText('You', { exact: true }).waitFor();
    expect(await own.getByRole('button').count()).toBe(0);

    const row = page.locator('tr', { hasText: customer.email });
    await row.getByRole('button', { name: 'Deactivate Mara Mailer' }).click();
    const dialog = page.getByRole('dialog', { name: 'Deactivate Mara Mailer?' });
    await dialog.waitFor();
    await expectNoSeriousAxeViolations(page);
    // Cancel changes nothing.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await userStatus(token)).toBe(200);
    await row.getByRole('button', { name: 'Deactivate Mara Mailer' }).click();
    await dialog.getByRole('button', { name: 'Deactivate' }).click();
    await row.getByText('Deactivated', { exact: true }).waitFor();
    expect(await userStatus(token)).toBe(401);
    expect((await call(e2e.product, 'POST', '/login', { json: customer })).status).toBe(401);

    await row.getByRole('button', { name: 'Reactivate Mara Mailer' }).click();
    await row.getByText('Active', { exact: true }).waitFor();
    expect((await call(e2e.product, 'POST', '/login', { json: customer })).status).toBe(200);
    expect(await userStatus(token)).toBe(401);
  });
});
