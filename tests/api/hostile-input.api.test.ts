import { connect } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inArray } from 'drizzle-orm';
import { contactInquiries, verificationLog } from '../../server/db/schema';
import { listJobs } from '../../server/jobs/jobs';
import { PHOTO_COPIES_QUEUE } from '../../server/modules/photos/photo-copies.job';
import { sweepOrphans } from '../../server/modules/maintenance/orphan-sweep';
import {
  DOCUMENT_PDF as PDF,
  NOT_AN_IMAGE as NOT_IMAGE,
  PHOTO_JPEG as JPEG,
  createUsers,
  photoFile,
  SUBMISSION_FIELDS as FIELDS,
  submissionForm,
} from '../support/factories';
import { call, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { storableCode } from '../../server/modules/verification/verification-log';
import { INVALID_TEXT_MESSAGE } from '../../server/plugins/text-guard';

// Hostile input (docs/product/limits.md, messages.md): malformed JSON, wrong types, unknown fields, oversized bodies, wrong
// file types by content, path traversal, long / unicode / SQL-looking strings stored verbatim, XSS
// payloads, and a property-based fuzzer: no call ever answers 500 and nothing is half-written.

const XSS = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<a href="javascript:alert(1)">x</a>',
  '"><svg onload=alert(1)>',
];
const SQLISH = "Robert'); DROP TABLE samples;-- ' OR '1'='1";
const UNICODE = 'Vase 花瓶 🏺 Ünïcødé ‮reversed‬ \u200b zero-width';

let t: TestApp;
let customer: TestUser;
let staff: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMITS: 'off' });
  [customer, staff, admin] = await createUsers(t, 'user', 'staff', 'admin');
});
afterAll(async () => {
  await t?.close();
});

async function newSample(fields: Record<string, string> = FIELDS) {
  const res = await call(t, 'POST', '/api/samples', { token: customer.token, form: submissionForm(fields) });
  expect(res.status).toBe(201);
  return (res.body as { id: number }).id;
}

/** Every JSON call, with a valid-looking path for the caller who may use it. */
const jsonCalls = (sampleId: number) =>
  [
    ['POST', '/login', undefined],
    ['POST', '/api/register', undefined],
    ['POST', '/api/contact', undefined],
    ['POST', `/api/admin/users/${customer.id}/role`, admin.token],
    ['POST', `/api/admin/samples/${sampleId}/assign`, admin.token],
    ['POST', `/api/staff/samples/${sampleId}/status`, admin.token],
    ['POST', `/api/staff/samples/${sampleId}/report`, admin.token],
    ['POST', `/api/samples/${sampleId}/report`, admin.token],
    ['POST', '/api/admin/contact-inquiries/1/status', admin.token],
    ['POST', '/api/admin/reports/ABCDEFGH/revoke', admin.token],
  ] as const;

describe('malformed and mistyped JSON', () => {
  it('answers malformed JSON with 400 on every JSON call', async () => {
    const id = await newSample();
    for (const [method, path, token] of jsonCalls(id)) {
      for (const raw of ['{not json', '{"a":', '[1,2', 'null', '"just a string"', '']) {
        const res = await call(t, method, path, {
          token,
          rawBody: raw,
          headers: { 'content-type': 'application/json' },
        });
        expect(res.status, `${path} ${JSON.stringify(raw)}: ${res.text}`).toBeGreaterThanOrEqual(400);
        expect(res.status, `${path} ${JSON.stringify(raw)}`).toBeLessThan(500);
        expect(res.body).toMatchObject({ message: expect.any(String) });
      }
    }
  });

  it('answers wrong types with 400 and field errors', async () => {
    const id = await newSample();
    const cases: [string, string, unknown, string | undefined][] = [
      ['POST', '/api/register', { email: 42, password: ['x'], firstName: {}, lastName: null }, undefined],
      ['POST', '/login', { email: true, password: 12345678 }, undefined],
      ['POST', `/api/staff/samples/${id}/status`, { status: 7 }, admin.token],
      ['POST', `/api/staff/samples/${id}/report`, { elements: 'gold' }, admin.token],
      [
        'POST',
        `/api/staff/samples/${id}/report`,
        { elements: [{ element: 1, percentage: 'lots' }] },
        admin.token,
      ],
      ['POST', `/api/admin/samples/${id}/assign`, { staffId: 'abc' }, admin.token],
      ['POST', '/api/contact', { firstName: [], message: 5 }, undefined],
    ];
    for (const [method, path, json, token] of cases) {
      const res = await call(t, method, path, { json, token });
      expect(res.status, `${path} ${res.text}`).toBe(400);
      expect(res.body).toMatchObject({ message: expect.any(String) });
    }
  });

  it('answers non-numeric and out-of-range ids with 400 or 404, never 500', async () => {
    for (const id of ['abc', '-1', '0', '1.5', '99999999999999999999', "1'--", '%00', '1e3']) {
      for (const [path, token] of [
        [`/api/samples/${id}`, customer.token],
        [`/api/staff/samples/${id}/status`, admin.token],
      ] as const) {
        const res = await call(t, path.endsWith('status') ? 'POST' : 'GET', path, {
          token,
          ...(path.endsWith('status') ? { json: { status: 'analysis' } } : {}),
        });
        expect([400, 404], `${path}: ${res.status} ${res.text}`).toContain(res.status);
      }
    }
  });

  it('ignores unknown fields: registering as admin yields a customer', async () => {
    const email = `sneaky-${Date.now()}@example.com`;
    const res = await call(t, 'POST', '/api/register', {
      json: {
        email,
        password: 'long-enough-1',
        firstName: 'S',
        lastName: 'N',
        role: 'admin',
        isActive: false,
        id: 1,
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ email, role: 'user' });
  });

  it('a 12 MB JSON body to POST /api/contact reaches the client as a 413 (the body is drained, not cut off)', async () => {
    // A plain client that sends its whole request before it reads the answer (as curl and most
    // server-side HTTP clients do): if the server answered and closed while it was still sending,
    // the client would get EPIPE / ECONNRESET and never see the answer.
    const body = Buffer.from(JSON.stringify({ padding: 'x'.repeat(12 * 1024 * 1024) }));
    const { port } = new URL(t.url);
    const send = (chunked: boolean) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1');
        let answer = '';
        socket.setEncoding('utf8');
        socket.on('data', (d: string) => (answer += d));
        socket.on('error', reject);
        socket.on('close', () => resolve(answer));
        const head = [
          'POST /api/contact HTTP/1.1',
          'host: 127.0.0.1',
          'content-type: application/json',
          chunked ? 'transfer-encoding: chunked' : `content-length: ${body.length}`,
          'connection: close',
          '',
          '',
        ].join('\r\n');
        socket.write(head);
        for (let at = 0; at < body.length; at += 64 * 1024) {
          const piece = body.subarray(at, at + 64 * 1024);
          socket.write(
            chunked
              ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')])
              : piece,
          );
        }
        if (chunked) socket.write('0\r\n\r\n');
      });
    for (const chunked of [false, true]) {
      const answer = await send(chunked);
      expect(answer, `chunked: ${chunked}`).toMatch(/^HTTP\/1\.1 413 /);
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
        message: expect.any(String),
      });
    }
  });

  it('answers oversized JSON bodies with 413', async () => {
    const id = await newSample();
    for (const [method, path, token] of jsonCalls(id)) {
      const res = await call(t, method, path, {
        token,
        rawBody: JSON.stringify({ padding: 'x'.repeat(3 * 1024 * 1024) }),
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status, path).toBe(413);
    }
  });
});

describe('NUL characters and invalid Unicode', () => {
  const contact = (message: string) => ({
    firstName: 'Nul',
    lastName: 'Byte',
    email: 'nul@example.com',
    subject: 'other',
    message,
  });

  it('answers 400 (never 500) for a NUL or a lone surrogate in any JSON field, and stores nothing', async () => {
    const before = await t.db.select().from(contactInquiries);
    for (const raw of [
      JSON.stringify(contact('hello\u0000world')),
      JSON.stringify(contact('lone \ud800 surrogate')),
      JSON.stringify(contact('lone \udc00 low')),
      JSON.stringify({ ...contact('ok'), ['key\u0000']: 'x' }),
    ]) {
      const res = await call(t, 'POST', '/api/contact', {
        rawBody: raw,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status, raw).toBe(400);
      expect(res.body).toMatchObject({ message: INVALID_TEXT_MESSAGE });
    }
    for (const [path, json] of [
      [
        '/api/register',
        { email: 'n@example.com', password: 'pass\u0000word', firstName: 'N', lastName: 'B' },
      ],
      ['/login', { email: 'n@example.com', password: 'pass\ud800word' }],
    ] as const) {
      const res = await call(t, 'POST', path, { json });
      expect(res.status, path).toBe(400);
    }
    // Bytes that are not UTF-8 at all.
    const bad = Buffer.concat([
      Buffer.from('{"firstName":"'),
      Buffer.from([0xc3, 0x28, 0xff]),
      Buffer.from('"}'),
    ]);
    const res = await call(t, 'POST', '/api/contact', {
      rawBody: bad,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(await t.db.select().from(contactInquiries)).toEqual(before);
    // A well-formed pair (an emoji) is fine.
    expect((await call(t, 'POST', '/api/contact', { json: contact('vase \u{1F3FA}') })).status).toBe(201);
  });

  it('answers 400 for a NUL in a path or query, and in multipart text (a refused submission stores nothing)', async () => {
    for (const path of [
      '/api/samples/%00',
      '/api/reports/verify/%00',
      '/api/reports/verify/AB%00CDEF',
      '/api/admin/users?role=%00',
    ]) {
      const res = await call(t, 'GET', path, { token: admin.token });
      expect(res.status, path).toBe(400);
    }
    const before = await t.storage.list('uploads');
    const res = await call(t, 'POST', '/api/samples', {
      token: customer.token,
      form: submissionForm({ ...FIELDS, itemName: 'Tea\u0000pot' }),
    });
    expect(res.status).toBe(400);
    expect(await t.storage.list('uploads')).toEqual(before);
    const profile = new FormData();
    profile.append('profile', JSON.stringify({ email: customer.email, firstName: 'A\u0000' }));
    expect(
      (await call(t, 'PUT', '/api/users/profile', { token: customer.token, form: profile })).status,
    ).toBe(400);
  });

  it('one %00 code does not cost the other verifications their place in the log', async () => {
    const codes = ['ZZZZZZZ2', 'ZZZZZZZ3', 'ZZZZZZZ4'];
    await Promise.all([
      ...codes.map((c) => call(t, 'GET', `/api/reports/verify/${c}`)),
      call(t, 'GET', '/api/reports/verify/%00'),
      call(t, 'GET', '/api/reports/verify/%ED%A0%80'),
    ]);
    await new Promise((r) => setTimeout(r, 600));
    const logged = await t.db.select().from(verificationLog).where(inArray(verificationLog.code, codes));
    expect(logged.map((r) => r.code).sort()).toEqual(codes);
  });

  it('the log itself never receives a code it cannot store', () => {
    expect(storableCode('AB\u0000CD')).toBe('ABCD');
    expect(storableCode('A\ud800B')).toBe('A\uFFFDB');
    expect(storableCode('X'.repeat(100))).toHaveLength(64);
  });
});

describe('files', () => {
  it('refuses a photo that is not an image by content with 415, storing nothing', async () => {
    const before = await t.storage.list('uploads');
    const res = await call(t, 'POST', '/api/samples', {
      token: customer.token,
      form: submissionForm(FIELDS, [photoFile('looks-fine.jpg', NOT_IMAGE)]),
    });
    expect(res.status).toBe(415);
    const pdfAsPhoto = await call(t, 'POST', '/api/samples', {
      token: customer.token,
      form: submissionForm(FIELDS, [photoFile('photo.png', PDF)]),
    });
    expect(pdfAsPhoto.status).toBe(415);
    expect(await t.storage.list('uploads')).toEqual(before);
  });

  it('refuses an oversized photo with 413, storing nothing', async () => {
    const before = await t.storage.list('uploads');
    const big = Buffer.alloc(6 * 1024 * 1024, 0x20);
    JPEG.copy(big);
    const res = await call(t, 'POST', '/api/samples', {
      token: customer.token,
      form: submissionForm(FIELDS, [photoFile('huge.jpg', big)]),
    });
    expect(res.status).toBe(413);
    expect(await t.storage.list('uploads')).toEqual(before);
  });

  it('refuses a profile image that is not JPEG/PNG by content with 415', async () => {
    const form = new FormData();
    form.append('profile', JSON.stringify({ email: customer.email }));
    form.append('profileImage', new Blob([new Uint8Array(PDF)], { type: 'image/png' }), 'me.png');
    const res = await call(t, 'PUT', '/api/users/profile', { token: customer.token, form });
    expect(res.status).toBe(415);
  });

  it('stores a path-traversal file name under a server-chosen name, keeping the original only as text', async () => {
    const id = (
      await call(t, 'POST', '/api/samples', {
        token: customer.token,
        form: submissionForm(FIELDS, [photoFile('../../../etc/passwd.jpg', JPEG)]),
      })
    ).body as { id: number };
    const detail = await call(t, 'GET', `/api/samples/${id.id}`, { token: customer.token });
    const file = (detail.body as { files: { fileName: string; originalName: string }[] }).files[0];
    expect(file?.fileName).toMatch(/^[A-Za-z0-9][A-Za-z0-9._-]*$/);
    expect(file?.originalName).not.toContain('/');
    expect(file?.originalName).not.toContain('\\');
  });

  it('never serves anything outside the storage root, whatever the path', async () => {
    const attempts = [
      '/Uploads/..%2Fjwt-secret',
      '/Uploads/..%2F..%2Fetc%2Fpasswd',
      '/Uploads/%2e%2e/jwt-secret',
      '/Uploads/profile/..%2F..%2Fjwt-secret',
      '/Uploads/profile/%2e%2e%2fjwt-secret',
      '/Uploads/logo/..',
      '/Uploads/signature/.hidden',
      '/Uploads/..\\..\\jwt-secret',
      '/Uploads/x%00.jpg',
      '/Uploads/reports/ABCDEFGH-r1.pdf',
      '/Uploads/db/PG_VERSION',
    ];
    for (const path of attempts) {
      const res = await call(t, 'GET', path, { token: admin.token });
      expect([400, 404], `${path}: ${res.status}`).toContain(res.status);
      expect(res.text).not.toMatch(/PG_VERSION|root:|[A-Za-z0-9_-]{40,}/);
    }
  });
});

describe('strings are data', () => {
  it('stores long, unicode, SQL-looking and XSS strings verbatim and answers them as JSON', async () => {
    const fields = {
      ...FIELDS,
      itemName: `${SQLISH} ${XSS[0]}`,
      description: `${UNICODE} ${XSS.join(' ')} ${'long '.repeat(400)}`.trim(),
      materials: XSS[1] as string,
      specialInstructions: SQLISH,
    };
    const id = await newSample(fields);
    const res = await call(t, 'GET', `/api/samples/${id}`, { token: customer.token });
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.body).toMatchObject({
      itemName: fields.itemName,
      description: fields.description,
      materials: fields.materials,
      specialInstructions: fields.specialInstructions,
    });
    const list = await call(t, 'GET', '/api/samples', { token: customer.token });
    expect((list.body as { itemName: string }[]).some((s) => s.itemName === fields.itemName)).toBe(true);

    const contact = await call(t, 'POST', '/api/contact', {
      json: {
        firstName: XSS[0],
        lastName: SQLISH.slice(0, 40),
        email: 'x@example.com',
        subject: 'general-inquiry',
        message: `${UNICODE} ${XSS.join(' ')}`,
      },
    });
    expect(contact.status).toBe(201);
    const inquiries = await call(t, 'GET', '/api/admin/contact-inquiries', { token: admin.token });
    expect(inquiries.headers.get('content-type')).toMatch(/^application\/json/);
    expect(
      (inquiries.body as { message: string }[]).some((i) => i.message === `${UNICODE} ${XSS.join(' ')}`),
    ).toBe(true);
  });

  it('sanitises rich-text notes: nothing executable in the answer or the PDF', async () => {
    const id = await newSample();
    const notes = `<h1>Title</h1><p onclick="alert(1)">Fine <b>gold</b></p>${XSS.join('')}<iframe src="javascript:alert(1)"></iframe>`;
    const issued = await call(t, 'POST', `/api/staff/samples/${id}/report`, {
      token: admin.token,
      json: {
        elements: [{ element: `Gold ${XSS[0]}`, percentage: 50, purity: XSS[1], quality: null, notes }],
      },
    });
    expect(issued.status).toBe(200);
    const detail = await call(t, 'GET', `/api/samples/${id}`, { token: staff.token });
    const stored =
      (detail.body as { reportElements: { notes: string | null }[] }).reportElements[0]?.notes ?? '';
    expect(stored).toContain('<b>gold</b>');
    expect(stored).not.toMatch(/<script|onerror|onclick|onload|javascript:|<iframe|<svg|<img/i);
    const pdf = await fetch(`${t.url}/api/report/${(issued.body as { reportCode: string }).reportCode}/pdf`, {
      headers: { authorization: `Bearer ${customer.token}` },
    });
    expect(pdf.status).toBe(200);
    const bytes = Buffer.from(await pdf.arrayBuffer()).toString('latin1');
    expect(bytes).not.toMatch(/\/JavaScript|\/JS\s|\/OpenAction|\/Launch/);
  });
});

describe('property-based fuzzer over the JSON calls', () => {
  it('never answers 500 and leaves no half-written row or file', async () => {
    const id = await newSample();
    const calls = jsonCalls(id);
    const jsonValue = fc.jsonValue({ maxDepth: 3 });
    const body = fc.oneof(
      jsonValue,
      fc.dictionary(
        fc.constantFrom(
          'email',
          'password',
          'firstName',
          'lastName',
          'status',
          'comment',
          'staffId',
          'role',
          'elements',
          'reason',
          'subject',
          'message',
          'phone',
        ),
        fc.oneof(
          jsonValue,
          fc.string({ unit: 'grapheme', maxLength: 300 }),
          fc.array(
            fc.record({
              element: fc.string(),
              percentage: fc.oneof(fc.double(), fc.integer(), fc.string()),
              notes: fc.oneof(fc.constant(null), fc.string(), fc.constantFrom(...XSS)),
            }),
            { maxLength: 5 },
          ),
        ),
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: calls.length - 1 }), body, async (i, json) => {
        const [method, path, token] = calls[i] as (typeof calls)[number];
        const res = await call(t, method, path, { token, json });
        if (res.status >= 500)
          throw new Error(`${method} ${path} ${JSON.stringify(json)} → ${res.status} ${res.text}`);
      }),
      { numRuns: 300 },
    );
    // Fuzzed ids in paths.
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 40 }), async (raw) => {
        const seg = encodeURIComponent(raw);
        for (const [method, path] of [
          ['GET', `/api/samples/${seg}`],
          ['GET', `/api/reports/verify/${seg}`],
          ['GET', `/Uploads/${seg}`],
          ['POST', `/api/staff/samples/${seg}/status`],
        ] as const) {
          const res = await call(t, method, path, {
            token: admin.token,
            ...(method === 'POST' ? { json: { status: 'analysis' } } : {}),
          });
          if (res.status >= 500) throw new Error(`${method} ${path} → ${res.status} ${res.text}`);
        }
      }),
      { numRuns: 100 },
    );
    // Nothing half-written: every stored file has its row and every row its file. The photos'
    // display copies are made in the background and written before their row says so: the sweep
    // (with no grace period here) runs once every copy job of this file's samples has finished, or it
    // would take a copy being made for an orphan.
    await photoCopiesFinished();
    const swept = await sweepOrphans({ db: t.db, storage: t.storage, graceMs: 0 });
    expect(swept).toEqual({ incomplete: [], orphans: [], missing: [] });
  });
});

/** Waits until no photo copy job is waiting or running (they run in the background here). */
async function photoCopiesFinished(ms = 30_000) {
  const end = Date.now() + ms;
  for (;;) {
    const busy = [
      ...(await listJobs(t.db, { queue: PHOTO_COPIES_QUEUE, state: 'pending' })),
      ...(await listJobs(t.db, { queue: PHOTO_COPIES_QUEUE, state: 'running' })),
    ];
    if (!busy.length) return;
    if (Date.now() > end) throw new Error(`photo copy jobs still unfinished after ${ms} ms: ${busy.length}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
