import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAs, newPage, seriousAxeViolations } from '../support/browser';
import { type E2E, shot, startE2E, stopE2E, visible } from '../support/e2e';
import { call, registerAccount } from '../support/http';

// The profile's partner sections (docs/product/partners.md): a customer adds a webhook pointing at a
// real HTTP server started here, sends a test event, sees its delivery and the endpoint's answer in
// the log, and the received request verifies with the Standard Webhooks reference library; "Send
// again" repeats it with the same webhook-id. An API key is shown once, works with Bearer on a call
// its scope allows, is refused on one it does not, and is refused at once after revoking. Both
// sections hold at 1366 and 375 px with no serious axe violation.

type Received = { headers: IncomingHttpHeaders; body: string };

let e2e: E2E;
let server: Server;
let receiverUrl: string;
const received: Received[] = [];
const url = () => e2e.product.url;
const customer = {
  email: `partner-${Date.now()}@example.com`,
  password: 'partner-password-1',
  firstName: 'Iris',
  lastName: 'Insurer',
};

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('received by the insurer');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/lab-events`;
  // The documented test switch: the receiver listens on loopback.
  e2e = await startE2E({ WEBHOOKS_ALLOW_LOOPBACK: '1' });
  await registerAccount(e2e.product, customer);
}, 180_000);
afterAll(async () => {
  await stopE2E(e2e);
  await new Promise((r) => server?.close(r));
});

async function expectNoSeriousAxeViolations(page: Page) {
  const violations = await seriousAxeViolations(page);
  expect(
    violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
  ).toEqual([]);
}

/** Waits until `check` holds, at most 20 s. */
async function until<T>(check: () => T | undefined | false): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met within 20 s');
    await new Promise((r) => setTimeout(r, 100));
  }
}

const webhooksSection = (page: Page) => page.locator('section[aria-labelledby="webhooks-title"]');
const keysSection = (page: Page) => page.locator('section[aria-labelledby="api-keys-title"]');

async function openProfile(page: Page) {
  await loginAs(page, url(), customer.email, customer.password);
  await page.goto('/profile');
  await page.getByRole('heading', { name: 'Webhooks', exact: true }).waitFor();
  await page.waitForLoadState('networkidle');
}

describe('the profile’s Webhooks section', () => {
  it('adds an endpoint, shows its secret once, sends a test event that arrives signed, logs it with the answer, and sends it again', async () => {
    const { page } = await newPage(e2e.browser, { baseURL: url(), width: 1366, height: 900 });
    await openProfile(page);
    const section = webhooksSection(page);
    await visible(page, 'No webhooks yet.');

    await section.getByRole('textbox', { name: 'Endpoint URL' }).fill(receiverUrl);
    await section.getByRole('checkbox', { name: /^sample\.status_changed/ }).check();
    await section.getByRole('button', { name: 'Add webhook' }).click();
    const shown = section.getByTestId('shown-once');
    await shown.waitFor();
    const secret = (await shown.textContent())?.trim() ?? '';
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const card = section.locator('[data-webhook-id]');
    await expect(card.textContent()).resolves.toContain(receiverUrl);
    await expect(card.textContent()).resolves.toMatch(
      /sample\.status_changed.*report\.issued|report\.issued.*sample\.status_changed/,
    );
    await expectNoSeriousAxeViolations(page);
    await section.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'detached' });

    // Shown once: after a reload the secret is nowhere on the page.
    await page.reload();
    await page.getByRole('heading', { name: 'Webhooks', exact: true }).waitFor();
    await visible(page, receiverUrl);
    expect(await page.content()).not.toContain(secret);

    await section.getByRole('button', { name: 'Send test event' }).click();
    await visible(page, 'Test event sent');
    const first = await until(() => received[0]);
    const payload = new Webhook(secret).verify(first.body, {
      'webhook-id': String(first.headers['webhook-id']),
      'webhook-timestamp': String(first.headers['webhook-timestamp']),
      'webhook-signature': String(first.headers['webhook-signature']),
    }) as { type: string; data: Record<string, unknown> };
    expect(payload.type).toBe('webhook.test');
    // A changed body does not verify.
    expect(() =>
      new Webhook(secret).verify(first.body.replace('test', 'tost'), {
        'webhook-id': String(first.headers['webhook-id']),
        'webhook-timestamp': String(first.headers['webhook-timestamp']),
        'webhook-signature': String(first.headers['webhook-signature']),
      }),
    ).toThrow();

    // The log shows the delivery, its state and the endpoint's answer (refreshed on its own).
    const row = section.locator('[data-delivery-id]').first();
    await row.getByText('Delivered', { exact: true }).waitFor({ timeout: 20_000 });
    await expect(row.textContent()).resolves.toMatch(
      /webhook\.test.*1 attempt.*200.*received by the insurer/s,
    );
    await expectNoSeriousAxeViolations(page);
    await shot(section, 'partners-webhooks-1366');

    await row.getByRole('button', { name: /Send again/ }).click();
    await visible(page, 'Sent again');
    const second = await until(() => received[1]);
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    await row.getByText('2 attempts').waitFor({ timeout: 20_000 });
  });

  it('deletes an endpoint after confirming: nothing more is sent to it', async () => {
    const { page } = await newPage(e2e.browser, { baseURL: url(), width: 1366, height: 900 });
    await openProfile(page);
    const section = webhooksSection(page);
    await section.locator('[data-webhook-id]').first().waitFor();
    const before = section.locator('[data-webhook-id]');
    const count = await before.count();
    await section.getByRole('textbox', { name: 'Endpoint URL' }).fill(`${receiverUrl}?spare`);
    await section.getByRole('button', { name: 'Add webhook' }).click();
    await section.getByTestId('shown-once').waitFor();
    await section.getByRole('button', { name: 'Done' }).click();
    const spare = section.locator('[data-webhook-id]', { hasText: `${receiverUrl}?spare` });
    await spare.waitFor();
    expect(await before.count()).toBe(count + 1);
    await spare.getByRole('button', { name: /Delete webhook/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this webhook?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Delete webhook' }).click();
    await visible(page, 'Webhook deleted');
    await spare.waitFor({ state: 'detached' });
    expect(await before.count()).toBe(count);
  });

  it('works at 375 px: the endpoint and its deliveries as cards, nothing off screen', async () => {
    const { page } = await newPage(e2e.browser, { baseURL: url(), width: 375, height: 800 });
    await openProfile(page);
    const section = webhooksSection(page);
    const card = section.locator('[data-webhook-id]').first();
    await card.waitFor();
    const row = card.locator('[data-delivery-id]').first();
    await row.waitFor();
    for (const box of [await card.boundingBox(), await row.boundingBox()])
      expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true);
    for (const name of ['Send test event', 'Add webhook']) {
      const button = await section.getByRole('button', { name }).first().boundingBox();
      expect(button && button.x >= 0 && button.x + button.width <= 375).toBe(true);
    }
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectNoSeriousAxeViolations(page);
    await shot(section, 'partners-webhooks-375');
  });
});

describe('the profile’s API keys section', () => {
  it('shows a new key once; it works with Bearer on an allowed call, is refused elsewhere, and at once after revoking', async () => {
    const { page } = await newPage(e2e.browser, { baseURL: url(), width: 1366, height: 900 });
    await openProfile(page);
    const section = keysSection(page);
    await section.getByRole('textbox', { name: 'Key name' }).fill('Insurer’s system');
    // samples:read is ticked by default.
    await section.getByRole('button', { name: 'Create key' }).click();
    const shown = section.getByTestId('shown-once');
    await shown.waitFor();
    const key = (await shown.textContent())?.trim() ?? '';
    expect(key).toMatch(/^vlk_/);
    await expectNoSeriousAxeViolations(page);
    await section.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'detached' });
    await visible(page, 'Insurer’s system');
    expect(await page.content()).not.toContain(key);

    expect((await call(e2e.product, 'GET', '/api/samples', { token: key })).status).toBe(200);
    // Not in its scopes: managing webhooks.
    expect((await call(e2e.product, 'GET', '/api/webhooks', { token: key })).status).toBe(403);

    await section
      .getByRole('button', { name: /Revoke/ })
      .first()
      .click();
    const dialog = page.getByRole('dialog', { name: 'Revoke this API key?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await visible(page, 'Key revoked');
    expect((await call(e2e.product, 'GET', '/api/samples', { token: key })).status).toBe(401);
    await visible(page, 'No API keys yet.');
  });

  it('works at 375 px with no serious axe violation', async () => {
    const { page } = await newPage(e2e.browser, { baseURL: url(), width: 375, height: 800 });
    await openProfile(page);
    const section = keysSection(page);
    await section.getByRole('textbox', { name: 'Key name' }).fill('Phone check');
    await section.getByRole('button', { name: 'Create key' }).click();
    await section.getByTestId('shown-once').waitFor();
    const box = await section.getByTestId('shown-once').boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectNoSeriousAxeViolations(page);
    // The list is cards at 375 px: the key's last use and its Revoke button are on screen, not off
    // to the side of a table that scrolls.
    await section.getByRole('button', { name: 'Done' }).click();
    const revoke = section.getByRole('button', { name: /Revoke Phone check/ });
    await revoke.waitFor();
    for (const shownPart of [revoke, section.getByText('Never').first()]) {
      const part = await shownPart.boundingBox();
      expect(part && part.x >= 0 && part.x + part.width <= 375).toBe(true);
    }
    await shot(section, 'partners-keys-375');
  });
});
