import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookCreated, WebhookDelivery } from '../../../common/contracts/webhooks';
import { buildApp } from '../../app';
import { auditEvents, webhooks } from '../../db/schema';
import { insertSample, issueReport } from '../../../tests/support/factories';
import { call, createUser, startTestApp, type TestApp, type TestUser } from '../../../tests/support/test-app';

// Webhooks (docs/product/partners.md): deliveries reach a real HTTP server started here, signed so
// that the Standard Webhooks reference library verifies them; retried after a 500 with the same
// webhook-id; one delivery per event and endpoint with two app instances on one database; private
// targets refused at registration and again at delivery.

type Received = { headers: IncomingHttpHeaders; body: string; at: number };

/** A partner's endpoint: records every request and answers with the next status in `answers` (then 200). */
function startReceiver() {
  const received: Received[] = [];
  const answers: number[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body, at: Date.now() });
      const status = answers.shift() ?? 200;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'thanks' : 'broken');
    });
  });
  return new Promise<{ url: string; received: Received[]; answers: number[]; close(): Promise<void> }>(
    (done) =>
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        done({
          url: `http://127.0.0.1:${port}/hooks`,
          received,
          answers,
          close: () => new Promise((r) => server.close(() => r())),
        });
      }),
  );
}
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** Waits until `check` holds (deliveries run in the background), at most 10 s. */
async function until<T>(check: () => T | undefined | false | Promise<T | undefined | false>): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = await check();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition not met within 10 s');
}

let t: TestApp;
let second: FastifyInstance;
let customer: TestUser;
let other: TestUser;
let staff: TestUser;
let admin: TestUser;
let receiver: Receiver;
let othersReceiver: Receiver;

beforeAll(async () => {
  t = await startTestApp({
    WEBHOOKS_ALLOW_LOOPBACK: '1',
    JOBS_RETRY_FIRST_SECONDS: '0.1',
    RATE_LIMITS: 'off',
  });
  // A second instance on the same database, with its own job worker competing for the deliveries.
  second = await buildApp({
    config: t.app.deps.config,
    database: t.database,
    storage: t.storage,
    logger: false,
    serveWeb: false,
    keys: t.app.deps.keys,
  });
  await second.ready();
  [customer, other, staff, admin] = await Promise.all([
    createUser(t),
    createUser(t),
    createUser(t, { role: 'staff' }),
    createUser(t, { role: 'admin' }),
  ]);
  [receiver, othersReceiver] = await Promise.all([startReceiver(), startReceiver()]);
});
afterAll(async () => {
  await second?.close();
  await t?.close();
  await receiver?.close();
  await othersReceiver?.close();
});

const register = async (owner: TestUser, url: string, events: string[]) => {
  const res = await call(t, 'POST', '/api/webhooks', { token: owner.token, json: { url, events } });
  expect(res.status, res.text).toBe(201);
  return res.body as WebhookCreated;
};
const deliveriesOf = async (owner: TestUser, id: number) => {
  const res = await call(t, 'GET', `/api/webhooks/${id}/deliveries`, { token: owner.token });
  expect(res.status).toBe(200);
  return res.body as WebhookDelivery[];
};
const verify = (secret: string, r: Received) =>
  new Webhook(secret).verify(r.body, {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  }) as { type: string; timestamp: string; data: Record<string, unknown> };

describe('registering endpoints', () => {
  it('answers the signing secret once, lists endpoints without it, and records the change', async () => {
    const hook = await register(customer, receiver.url, ['report.issued', 'report.issued']);
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(hook.events).toEqual(['report.issued']);
    const list = await call(t, 'GET', '/api/webhooks', { token: customer.token });
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(hook.secret);
    expect((list.body as { id: number }[]).map((w) => w.id)).toContain(hook.id);
    // Someone else's endpoint does not exist for them.
    expect((await call(t, 'GET', `/api/webhooks/${hook.id}/deliveries`, { token: other.token })).status).toBe(
      404,
    );
    expect((await call(t, 'DELETE', `/api/webhooks/${hook.id}`, { token: other.token })).status).toBe(404);
    const deleted = await call(t, 'DELETE', `/api/webhooks/${hook.id}`, { token: customer.token });
    expect(deleted.status).toBe(200);
    const events = await t.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.subjectId, String(hook.id)));
    expect(events.filter((e) => e.subjectType === 'webhook').map((e) => e.action)).toEqual([
      'webhook.created',
      'webhook.deleted',
    ]);
    expect(JSON.stringify(events)).not.toContain(hook.secret);
  });

  it('refuses staff (403), bad URLs and unknown events (400)', async () => {
    const byStaff = await call(t, 'POST', '/api/webhooks', {
      token: staff.token,
      json: { url: receiver.url, events: ['report.issued'] },
    });
    expect(byStaff.status).toBe(403);
    for (const url of ['ftp://example.com/x', 'not a url', 'http://user:pw@example.com/']) {
      const res = await call(t, 'POST', '/api/webhooks', {
        token: customer.token,
        json: { url, events: ['report.issued'] },
      });
      expect(res.status, url).toBe(400);
      expect(res.body).toMatchObject({ errors: [{ path: 'url' }] });
    }
    const noEvent = await call(t, 'POST', '/api/webhooks', {
      token: customer.token,
      json: { url: receiver.url, events: ['sample.deleted'] },
    });
    expect(noEvent.status).toBe(400);
  });

  it('refuses private, link-local and unique-local targets (also IPv4-mapped), even with the loopback switch', async () => {
    for (const url of [
      'http://10.1.2.3/hook',
      'http://192.168.1.10/hook',
      'http://172.16.0.1/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[fc00::1]/hook',
      'http://[fd12:3456::1]/hook',
      'http://[fe80::1]/hook',
      'http://[::ffff:10.0.0.1]/hook',
      'http://[::ffff:169.254.169.254]/hook',
      'http://0.0.0.0/hook',
    ]) {
      const res = await call(t, 'POST', '/api/webhooks', {
        token: customer.token,
        json: { url, events: ['report.issued'] },
      });
      expect(res.status, url).toBe(400);
      expect(res.body, url).toEqual({
        message: 'This URL points to a private, loopback or link-local address',
        errors: [{ path: 'url', message: 'This URL points to a private, loopback or link-local address' }],
      });
    }
  });

  it('checks the address again at each delivery: a stored private target is never contacted', async () => {
    const hook = await register(customer, receiver.url, ['report.issued']);
    await t.db.update(webhooks).set({ url: 'http://10.255.255.1/hook' }).where(eq(webhooks.id, hook.id));
    const sent = await call(t, 'POST', `/api/webhooks/${hook.id}/test`, { token: customer.token });
    expect(sent.status).toBe(201);
    const [delivery] = await until(async () => {
      const log = await deliveriesOf(customer, hook.id);
      return log[0]?.attempts.length ? log : undefined;
    });
    expect(delivery?.attempts[0]).toMatchObject({
      statusCode: null,
      response: 'Not sent: This URL points to a private, loopback or link-local address',
    });
    expect(delivery?.state).toBe('pending');
    await call(t, 'DELETE', `/api/webhooks/${hook.id}`, { token: customer.token });
  });
});

describe('deliveries', () => {
  it('sends report.issued to the owner’s and the admin’s endpoints, signed, and not to another customer’s', async () => {
    const mine = await register(customer, receiver.url, ['report.issued', 'sample.status_changed']);
    const lab = await register(admin, `${receiver.url}?lab`, ['report.issued']);
    const theirs = await register(other, othersReceiver.url, ['report.issued']);
    const sample = await insertSample(t.db, customer, { assignedStaffId: staff.id });
    const before = receiver.received.length;
    const issuedAt = Date.now();
    const { reportCode } = await issueReport(t, sample.id, staff.token);
    const got = await until(() => {
      const fresh = receiver.received.slice(before).filter((r) => r.body.includes(reportCode));
      return fresh.length >= 2 ? fresh : undefined;
    });
    const toMe = got.find((r) => verifies(mine.secret, r));
    const toLab = got.find((r) => verifies(lab.secret, r));
    expect(toMe && toLab).toBeTruthy();
    const payload = verify(mine.secret, toMe as Received);
    expect(payload.type).toBe('report.issued');
    expect(payload.data).toMatchObject({ sampleId: sample.id, reportCode, revision: 1 });
    expect(String(toMe?.headers['webhook-id'])).toMatch(/^msg_/);
    expect(toMe?.headers['webhook-id']).not.toBe(toLab?.headers['webhook-id']);
    // Within seconds of the event (the figure is measured in bench/).
    expect((toMe as Received).at - issuedAt).toBeLessThan(5000);
    // A changed byte, or another endpoint's secret, does not verify.
    expect(() =>
      verify(mine.secret, { ...(toMe as Received), body: (toMe as Received).body.replace('1', '2') }),
    ).toThrow();
    expect(() => verify(theirs.secret, toMe as Received)).toThrow();
    expect(othersReceiver.received.filter((r) => r.body.includes(reportCode))).toEqual([]);

    // The delivery log shows the answer.
    const log = await until(async () => {
      const l = await deliveriesOf(customer, mine.id);
      return l.find((d) => d.event === 'report.issued' && d.state === 'delivered');
    });
    expect(log.attempts).toEqual([expect.objectContaining({ statusCode: 200, response: 'thanks' })]);
    for (const id of [mine.id]) await call(t, 'DELETE', `/api/webhooks/${id}`, { token: customer.token });
    await call(t, 'DELETE', `/api/webhooks/${lab.id}`, { token: admin.token });
    await call(t, 'DELETE', `/api/webhooks/${theirs.id}`, { token: other.token });
  });

  it('retries after a 500 with the same webhook-id, and logs both attempts', async () => {
    const hook = await register(customer, receiver.url, ['sample.status_changed']);
    const sample = await insertSample(t.db, customer, { assignedStaffId: staff.id });
    receiver.answers.push(500);
    const before = receiver.received.length;
    const changed = await call(t, 'POST', `/api/staff/samples/${sample.id}/status`, {
      token: staff.token,
      json: { status: 'in-progress' },
    });
    expect(changed.status).toBe(200);
    const got = await until(() => {
      const fresh = receiver.received.slice(before).filter((r) => r.body.includes(`"sampleId":${sample.id}`));
      return fresh.length >= 2 ? fresh : undefined;
    });
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(1);
    const payload = verify(hook.secret, got[1] as Received);
    expect(payload).toMatchObject({
      type: 'sample.status_changed',
      data: { sampleId: sample.id, previousStatus: 'submitted', status: 'in-progress' },
    });
    const delivery = await until(async () =>
      (await deliveriesOf(customer, hook.id)).find((d) => d.state === 'delivered'),
    );
    expect(delivery.attempts.map((a) => [a.statusCode, a.response])).toEqual([
      [500, 'broken'],
      [200, 'thanks'],
    ]);
    await call(t, 'DELETE', `/api/webhooks/${hook.id}`, { token: customer.token });
  });

  it('delivers each event once per endpoint with two instances on the same database', async () => {
    const hook = await register(customer, receiver.url, ['sample.status_changed']);
    const ids = await Promise.all(
      Array.from(
        { length: 8 },
        async () => (await insertSample(t.db, customer, { assignedStaffId: staff.id })).id,
      ),
    );
    const before = receiver.received.length;
    for (const id of ids)
      expect(
        (
          await call(t, 'POST', `/api/staff/samples/${id}/status`, {
            token: staff.token,
            json: { status: 'analysis' },
          })
        ).status,
      ).toBe(200);
    await until(async () => {
      const log = await deliveriesOf(customer, hook.id);
      return log.filter((d) => d.state === 'delivered').length === ids.length;
    });
    // Give a duplicate the time to arrive, then count.
    await until(
      async () => (await t.app.deps.jobs.runDue()) === 0 && (await second.deps.jobs.runDue()) === 0,
    );
    const fresh = receiver.received.slice(before).filter((r) => verifies(hook.secret, r));
    expect(fresh).toHaveLength(ids.length);
    expect(new Set(fresh.map((r) => r.headers['webhook-id'])).size).toBe(ids.length);
    await call(t, 'DELETE', `/api/webhooks/${hook.id}`, { token: customer.token });
  });

  it('sends a test event and sends a delivery again with its webhook-id', async () => {
    const hook = await register(customer, receiver.url, ['quote.sent']);
    const sent = await call(t, 'POST', `/api/webhooks/${hook.id}/test`, { token: customer.token });
    expect(sent.status).toBe(201);
    const delivery = sent.body as WebhookDelivery;
    expect(delivery.event).toBe('webhook.test');
    const first = await until(() =>
      receiver.received.find((r) => r.headers['webhook-id'] === delivery.messageId),
    );
    expect(verify(hook.secret, first).type).toBe('webhook.test');
    await until(async () => (await deliveriesOf(customer, hook.id)).find((d) => d.state === 'delivered'));
    const again = await call(t, 'POST', `/api/webhooks/${hook.id}/deliveries/${delivery.id}/redeliver`, {
      token: customer.token,
    });
    expect(again.status).toBe(200);
    await until(
      () => receiver.received.filter((r) => r.headers['webhook-id'] === delivery.messageId).length === 2,
    );
    const log = await until(async () => {
      const d = (await deliveriesOf(customer, hook.id)).find((x) => x.id === delivery.id);
      // The attempt is logged just before the delivery is marked delivered: wait for both.
      return d?.attempts.length === 2 && d.state === 'delivered' ? d : undefined;
    });
    expect(log.attempts.map((x) => x.statusCode)).toEqual([200, 200]);
    expect(
      (
        await call(t, 'POST', `/api/webhooks/${hook.id}/deliveries/${delivery.id}/redeliver`, {
          token: other.token,
        })
      ).status,
    ).toBe(404);
  });

  it('works with an API key holding webhooks:manage, and refuses one without it', async () => {
    const key = async (scopes: string[]) =>
      (
        (await call(t, 'POST', '/api/api-keys', { token: customer.token, json: { name: 'hooks', scopes } }))
          .body as {
          key: string;
        }
      ).key;
    const manage = await key(['webhooks:manage']);
    const read = await key(['samples:read']);
    expect((await call(t, 'GET', '/api/webhooks', { token: manage })).status).toBe(200);
    expect((await call(t, 'GET', '/api/webhooks', { token: read })).status).toBe(403);
    const created = await call(t, 'POST', '/api/webhooks', {
      token: manage,
      json: { url: receiver.url, events: ['report.revoked'] },
    });
    expect(created.status).toBe(201);
  });
});

function verifies(secret: string, r: Received): boolean {
  try {
    verify(secret, r);
    return true;
  } catch {
    return false;
  }
}
