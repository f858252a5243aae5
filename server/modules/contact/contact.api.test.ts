import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACT_MESSAGE_MAX, CONTACT_NAME_MAX, CONTACT_RATE_LIMIT } from '../../../common/contracts/contact';
import { call, createUser, startTestApp, type TestApp } from '../../../tests/support/test-app';
import { contactInquiries } from '../../db/schema';

const valid = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  phone: '+44 20 7946 0000',
  subject: 'valuation-quote',
  message: 'I have a Georgian silver teapot I would like valued.',
};

// Each request comes from its own address, so the rate limit only bites where a test wants it.
let address = 0;
const from = () => ({ 'x-forwarded-for': `10.0.${Math.floor(++address / 250)}.${address % 250}` });

describe('POST /api/contact (limits off)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMITS: 'off' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('stores a valid message with status new and answers 201 with it', async () => {
    const res = await call(t, 'POST', '/api/contact', { json: { ...valid, firstName: '  Ada ' } });
    expect(res.status).toBe(201);
    const body = res.body as Record<string, unknown>;
    expect(body).toMatchObject({ ...valid, status: 'new', id: expect.any(Number) });
    expect(new Date(body.createdAt as string).getTime()).not.toBeNaN();
    const [row] = await t.db
      .select()
      .from(contactInquiries)
      .where(eq(contactInquiries.id, body.id as number));
    expect(row).toMatchObject({ ...valid, status: 'new' });
  });

  it('accepts a message without a phone (stored as null) and ignores unknown fields', async () => {
    const { phone: _phone, ...rest } = valid;
    const res = await call(t, 'POST', '/api/contact', {
      json: { ...rest, role: 'admin', status: 'responded' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ phone: null, status: 'new' });
  });

  it.each([
    ['missing first name', { firstName: '' }, 'firstName', 'First name is required'],
    ['blank last name', { lastName: '   ' }, 'lastName', 'Last name is required'],
    ['bad e-mail', { email: 'not-an-email' }, 'email', 'Invalid email address'],
    ['unknown subject', { subject: 'sales' }, 'subject', 'Please select a subject'],
    ['empty message', { message: '  ' }, 'message', 'Message is required'],
    [
      'too long message',
      { message: 'x'.repeat(CONTACT_MESSAGE_MAX + 1) },
      'message',
      `Message must be at most ${CONTACT_MESSAGE_MAX} characters`,
    ],
    ['too long name', { firstName: 'x'.repeat(CONTACT_NAME_MAX + 1) }, 'firstName', undefined],
    ['wrong type', { message: 42 }, 'message', undefined],
  ])('refuses %s with 400 and stores nothing', async (_label, patch, path, message) => {
    const before = await t.db.$count(contactInquiries);
    const res = await call(t, 'POST', '/api/contact', { json: { ...valid, ...patch } });
    expect(res.status).toBe(400);
    const body = res.body as { message: string; errors: { path: string; message: string }[] };
    expect(body.errors.map((e) => e.path)).toContain(path);
    if (message) expect(body.errors.find((e) => e.path === path)?.message).toBe(message);
    expect(await t.db.$count(contactInquiries)).toBe(before);
  });

  it('accepts the bounds exactly', async () => {
    const res = await call(t, 'POST', '/api/contact', {
      json: { ...valid, firstName: 'x'.repeat(CONTACT_NAME_MAX), message: 'm'.repeat(CONTACT_MESSAGE_MAX) },
    });
    expect(res.status).toBe(201);
  });

  it('refuses a filled honeypot and stores nothing', async () => {
    const before = await t.db.$count(contactInquiries);
    const res = await call(t, 'POST', '/api/contact', { json: { ...valid, website: 'http://spam.example' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'Message rejected' });
    expect(await t.db.$count(contactInquiries)).toBe(before);
    const empty = await call(t, 'POST', '/api/contact', { json: { ...valid, website: '' } });
    expect(empty.status).toBe(201);
  });

  it('answers malformed JSON with 400, never 500', async () => {
    const res = await call(t, 'POST', '/api/contact', {
      rawBody: '{"firstName":',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
  });

  it('does not rate limit when RATE_LIMITS=off', async () => {
    for (let i = 0; i < CONTACT_RATE_LIMIT.max + 2; i++) {
      const res = await call(t, 'POST', '/api/contact', { json: valid });
      expect(res.status).toBe(201);
    }
  });

  it('stores the row the admin sees in the inquiries list, with status new', async () => {
    const sent = await call(t, 'POST', '/api/contact', {
      json: { ...valid, firstName: 'Grace', message: 'Visible to the admin?' },
    });
    expect(sent.status).toBe(201);
    const admin = await createUser(t, { role: 'admin' });
    const list = await call(t, 'GET', '/api/admin/contact-inquiries?page=1&pageSize=10', {
      token: admin.token,
    });
    expect(list.status).toBe(200);
    const first = (list.body as Record<string, unknown>[])[0];
    expect(first).toMatchObject({
      id: (sent.body as { id: number }).id,
      firstName: 'Grace',
      email: valid.email,
      subject: valid.subject,
      message: 'Visible to the admin?',
      status: 'new',
    });
  });
});

describe('POST /api/contact (limits on)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it(`answers 429 after ${CONTACT_RATE_LIMIT.max} messages from one address, other addresses unaffected`, async () => {
    const headers = from();
    for (let i = 0; i < CONTACT_RATE_LIMIT.max; i++) {
      const res = await call(t, 'POST', '/api/contact', { json: valid, headers });
      expect(res.status).toBe(201);
    }
    const limited = await call(t, 'POST', '/api/contact', { json: valid, headers });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ message: expect.any(String) });
    expect(await t.db.$count(contactInquiries)).toBe(CONTACT_RATE_LIMIT.max);
    const other = await call(t, 'POST', '/api/contact', { json: valid, headers: from() });
    expect(other.status).toBe(201);
  });
});
