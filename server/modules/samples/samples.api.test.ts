import { readdirSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type OwnSampleListItem,
  ownSampleListItem,
  type Sample,
  type SampleDetail,
} from '../../../common/contracts/samples';
import { MAX_SAMPLE_FILE_BYTES, MAX_SAMPLE_PHOTOS } from '../../../common/domain/uploads';
import { reportElements, sampleFiles, sampleStatusHistory, samples } from '../../db/schema';
import {
  DOCUMENT_PDF as PDF,
  fixture,
  NOT_AN_IMAGE,
  PHOTO_JPEG as JPEG,
  PHOTO_PNG as PNG,
  SUBMISSION_FIELDS as VALID_FIELDS,
  submissionForm as submission,
} from '../../../tests/support/factories';
import { call, createUser, startTestApp, type TestApp, type TestUser } from '../../../tests/support/test-app';
import { compoundFile } from '../../../tests/support/compound-file';
import { eq } from 'drizzle-orm';

let t: TestApp;
let alice: TestUser;
let bob: TestUser;
let staff: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  [alice, bob, staff, admin] = await Promise.all([
    createUser(t),
    createUser(t),
    createUser(t, { role: 'staff' }),
    createUser(t, { role: 'admin' }),
  ]);
});
afterAll(async () => {
  await t?.close();
});

/** Every entry under the files directory, temporary files included. */
function storedFiles(): string[] {
  try {
    return readdirSync(join(t.filesDir, 'uploads'));
  } catch {
    return [];
  }
}

async function counts() {
  const [s] = await t.db.select({ n: count() }).from(samples);
  const [f] = await t.db.select({ n: count() }).from(sampleFiles);
  const [h] = await t.db.select({ n: count() }).from(sampleStatusHistory);
  return { samples: s?.n ?? 0, files: f?.n ?? 0, history: h?.n ?? 0, stored: storedFiles().length };
}

async function submit(user: TestUser, form = submission()) {
  return call(t, 'POST', '/api/samples', { token: user.token, form });
}

describe('POST /api/samples', () => {
  it('stores a full submission with real image bytes, its files and its first history row', async () => {
    const before = await counts();
    const res = await submit(
      alice,
      submission(VALID_FIELDS, [
        { field: 'photos', name: 'front.jpg', bytes: JPEG, type: 'image/jpeg' },
        { field: 'photos', name: 'back.png', bytes: PNG, type: 'image/png' },
        { field: 'documents', name: 'receipt.pdf', bytes: PDF, type: 'application/pdf' },
      ]),
    );
    expect(res.status).toBe(201);
    const sample = res.body as Sample;
    expect(sample).toMatchObject({
      itemName: 'Georgian Silver Teapot',
      status: 'submitted',
      userId: alice.id,
      isPersonalSubmission: true,
      isRepresentative: false,
      expertValuation: true,
      authenticityCheck: false,
      conditionAssessment: true,
      provenanceResearch: false,
      urgencyLevel: 'urgent',
      submitterCountry: 'united-kingdom',
      representativeName: null,
      clientName: null,
    });
    expect(await counts()).toEqual({
      samples: before.samples + 1,
      files: before.files + 3,
      history: before.history + 1,
      stored: before.stored + 3,
    });

    const detail = await call(t, 'GET', `/api/samples/${sample.id}`, { token: alice.token });
    expect(detail.status).toBe(200);
    const d = detail.body as SampleDetail;
    expect(d.files.map((f) => [f.originalName, f.fileCategory, f.fileType, f.fileSize])).toEqual([
      ['front.jpg', 'photo', 'image/jpeg', JPEG.length],
      ['back.png', 'photo', 'image/png', PNG.length],
      ['receipt.pdf', 'document', 'application/pdf', PDF.length],
    ]);
    for (const f of d.files) expect(f.fileName).toMatch(/^[0-9a-f]{32}\.(jpg|png|pdf)$/);
    expect(d.statusHistory).toEqual([
      expect.objectContaining({
        status: 'submitted',
        updatedBy: { id: alice.id, firstName: alice.firstName, lastName: alice.lastName },
      }),
    ]);
    expect(d.user).toEqual({ firstName: alice.firstName, lastName: alice.lastName });
    expect(d.assignedStaff).toBeNull();
    expect(d.reportElements).toEqual([]);
    expect(d.quote).toBeNull();
    // The 201 answer is the stored row, presented exactly as every later read presents it.
    const {
      files: _f,
      reportElements: _e,
      statusHistory: _h,
      report,
      user: _u,
      assignedStaff: _a,
      quote: _q,
      ...stored
    } = d;
    expect(report).toBeNull();
    expect(sample).toEqual(stored);
    const isoUtc = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
    for (const f of d.files) expect(f.uploadDate).toMatch(isoUtc);
    expect(d.statusHistory[0]?.createdAt).toMatch(isoUtc);
    expect(Math.abs(Date.parse(d.statusHistory[0]?.createdAt ?? '') - Date.now())).toBeLessThan(60_000);

    // Report elements come back typed: percentage a number, text fields as stored, in insertion order.
    await t.db.insert(reportElements).values([
      {
        sampleId: sample.id,
        element: 'Gold',
        percentage: '75.50',
        purity: '18k',
        quality: 'Excellent',
        notes: '<p>Fine</p>',
      },
      {
        sampleId: sample.id,
        element: 'Silver',
        percentage: '4.25',
        purity: null,
        quality: null,
        notes: null,
      },
    ]);
    const withElements = (await call(t, 'GET', `/api/samples/${sample.id}`, { token: alice.token }))
      .body as SampleDetail;
    expect(withElements.reportElements).toEqual([
      expect.objectContaining({
        sampleId: sample.id,
        element: 'Gold',
        percentage: 75.5,
        purity: '18k',
        quality: 'Excellent',
        notes: '<p>Fine</p>',
      }),
      expect.objectContaining({
        sampleId: sample.id,
        element: 'Silver',
        percentage: 4.25,
        purity: null,
        quality: null,
        notes: null,
      }),
    ]);
    for (const e of withElements.reportElements) expect(e.createdAt).toMatch(isoUtc);
    await t.db.delete(reportElements).where(eq(reportElements.sampleId, sample.id));

    // The stored bytes are the uploaded bytes, served back to the owner with the detected type.
    const file = await fetch(`${t.url}/Uploads/${d.files[0]?.fileName}`, {
      headers: { authorization: `Bearer ${alice.token}` },
    });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/jpeg');
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await file.arrayBuffer()).equals(JPEG)).toBe(true);
  });

  it('stores the representative fields only for a submission on behalf of someone else', async () => {
    const res = await submit(
      alice,
      submission({
        ...VALID_FIELDS,
        isPersonalSubmission: 'false',
        representativeName: 'Charles Babbage',
        representativeEmail: 'charles@example.com',
        relationshipToOwner: 'estate-manager',
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      isPersonalSubmission: false,
      isRepresentative: true,
      representativeName: 'Charles Babbage',
      representativeEmail: 'charles@example.com',
      relationshipToOwner: 'estate-manager',
      representativeRelation: 'estate-manager',
      clientName: 'Ada Lovelace',
    });
    const personal = await submit(
      alice,
      submission({ ...VALID_FIELDS, representativeName: 'Ignored', representativeEmail: 'x@example.com' }),
    );
    expect(personal.body).toMatchObject({
      representativeName: null,
      representativeEmail: null,
      isRepresentative: false,
    });
  });

  const refusals: [string, () => FormData, number, string | RegExp][] = [
    ['no photo', () => submission(VALID_FIELDS, []), 400, 'At least one photo is required.'],
    [
      'only a document, no photo',
      () => submission(VALID_FIELDS, [{ field: 'documents', name: 'a.pdf', bytes: PDF }]),
      400,
      'At least one photo is required.',
    ],
    [
      'no service',
      () =>
        submission({
          ...VALID_FIELDS,
          expertValuation: 'false',
          authenticityCheck: 'false',
          conditionAssessment: 'false',
          provenanceResearch: 'false',
        }),
      400,
      'At least one service must be selected.',
    ],
    [
      'a bad e-mail',
      () => submission({ ...VALID_FIELDS, submitterEmail: 'not-an-email' }),
      400,
      'Invalid email address',
    ],
    [
      'a bad representative e-mail',
      () => submission({ ...VALID_FIELDS, isPersonalSubmission: 'false', representativeEmail: 'nope' }),
      400,
      'Invalid email address',
    ],
    [
      'a bad urgency',
      () => submission({ ...VALID_FIELDS, urgencyLevel: 'yesterday' }),
      400,
      'Urgency level must be standard or urgent',
    ],
    [
      'a missing item name',
      () => submission({ ...VALID_FIELDS, itemName: '  ' }),
      400,
      'Item name is required',
    ],
    ['a boolean that is not one', () => submission({ ...VALID_FIELDS, expertValuation: 'maybe' }), 400, /./],
    [
      'a text file named .png',
      () =>
        submission(VALID_FIELDS, [
          { field: 'photos', name: 'x.png', bytes: NOT_AN_IMAGE, type: 'image/png' },
        ]),
      415,
      'Photos must be JPG, PNG or HEIC images',
    ],
    [
      'a text file named .pdf among the documents, after a good photo',
      () =>
        submission(VALID_FIELDS, [
          { field: 'photos', name: 'ok.jpg', bytes: JPEG },
          { field: 'documents', name: 'x.pdf', bytes: NOT_AN_IMAGE },
        ]),
      415,
      'Documents must be PDF, DOC, DOCX, JPG or PNG files',
    ],
    [
      'a compound file that is not a Word document (a spreadsheet named .doc)',
      () =>
        submission(VALID_FIELDS, [
          { field: 'photos', name: 'ok.jpg', bytes: JPEG },
          { field: 'documents', name: 'sheet.doc', bytes: compoundFile(['Workbook']) },
        ]),
      415,
      'Documents must be PDF, DOC, DOCX, JPG or PNG files',
    ],
    [
      'an 11th photo',
      () =>
        submission(
          VALID_FIELDS,
          Array.from({ length: MAX_SAMPLE_PHOTOS + 1 }, (_, i) => ({
            field: 'photos' as const,
            name: `p${i}.jpg`,
            bytes: JPEG,
          })),
        ),
      413,
      'At most 10 photos can be uploaded',
    ],
    [
      'a 6 MB photo',
      () =>
        submission(VALID_FIELDS, [
          { field: 'photos', name: 'ok.jpg', bytes: JPEG },
          { field: 'photos', name: 'big.jpg', bytes: Buffer.concat([JPEG, Buffer.alloc(6 * 1024 * 1024)]) },
        ]),
      413,
      'Each file must be 5MB or smaller',
    ],
  ];

  for (const [what, form, status, message] of refusals) {
    it(`refuses ${what} with ${status} and leaves no row and no file`, async () => {
      const before = await counts();
      const res = await submit(alice, form());
      expect(res.status).toBe(status);
      expect((res.body as { message: string }).message).toMatch(message);
      expect(await counts()).toEqual(before);
    });
  }

  it('accepts a Word document recognised by its content', async () => {
    const docx = fixture('document.docx');
    const res = await submit(
      alice,
      submission(VALID_FIELDS, [
        { field: 'photos', name: 'front.jpg', bytes: JPEG },
        { field: 'documents', name: 'appraisal.docx', bytes: docx },
      ]),
    );
    expect(res.status).toBe(201);
    const detail = await call(t, 'GET', `/api/samples/${(res.body as Sample).id}`, { token: alice.token });
    const doc = (detail.body as SampleDetail).files.find((f) => f.fileCategory === 'document');
    expect(doc?.fileType).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(doc?.fileName).toMatch(/\.docx$/);
  });

  it('accepts a legacy .doc whose directory (past the first 64 KB) lists a WordDocument stream', async () => {
    const doc = compoundFile(['1Table', 'WordDocument'], { padSectors: 20 });
    expect(doc.length).toBeGreaterThan(64 * 1024);
    const res = await submit(
      alice,
      submission(VALID_FIELDS, [
        { field: 'photos', name: 'front.jpg', bytes: JPEG },
        { field: 'documents', name: 'letter.doc', bytes: doc },
      ]),
    );
    expect(res.status).toBe(201);
    const detail = await call(t, 'GET', `/api/samples/${(res.body as Sample).id}`, { token: alice.token });
    const stored = (detail.body as SampleDetail).files.find((f) => f.fileCategory === 'document');
    expect(stored?.fileName).toMatch(/\.doc$/);
    expect(stored?.fileSize).toBe(doc.length);
  });

  it('accepts a photo of exactly 5 MB', async () => {
    const bytes = Buffer.concat([JPEG, Buffer.alloc(MAX_SAMPLE_FILE_BYTES - JPEG.length)]);
    const res = await submit(alice, submission(VALID_FIELDS, [{ field: 'photos', name: 'edge.jpg', bytes }]));
    expect(res.status).toBe(201);
  });

  it('refuses a request that is not multipart with 400, and a visitor with 401', async () => {
    const before = await counts();
    const json = await call(t, 'POST', '/api/samples', { token: alice.token, json: VALID_FIELDS });
    expect(json.status).toBe(400);
    const anonymous = await call(t, 'POST', '/api/samples', { form: submission() });
    expect(anonymous.status).toBe(401);
    expect(await counts()).toEqual(before);
  });

  it('leaves no row and no file when the connection is cut in the middle of a file', async () => {
    const before = await counts();
    const boundary = '----cut-test-boundary';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="itemName"\r\n\r\nCut Vase\r\n` +
        Object.entries(VALID_FIELDS)
          .filter(([k]) => k !== 'itemName')
          .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
          .join('') +
        `--${boundary}\r\nContent-Disposition: form-data; name="photos"; filename="ok.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    );
    const first = Buffer.concat([head, JPEG, Buffer.from(`\r\n--${boundary}\r\n`)]);
    const second = Buffer.from(
      `Content-Disposition: form-data; name="photos"; filename="cut.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    );
    const partial = Buffer.concat([JPEG, Buffer.alloc(512 * 1024, 7)]);
    const url = new URL(`${t.url}/api/samples`);
    await new Promise<void>((resolve) => {
      const req = httpRequest({
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          authorization: `Bearer ${alice.token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(first.length + second.length + 4 * 1024 * 1024),
        },
      });
      req.on('error', () => resolve());
      req.on('close', () => resolve());
      req.write(first);
      req.write(second);
      req.write(partial, () => setTimeout(() => req.destroy(), 200));
    });
    // The server notices the cut and cleans up; give it a moment, then nothing may remain.
    let now = await counts();
    for (let i = 0; i < 50 && now.stored !== before.stored; i++) {
      await new Promise((r) => setTimeout(r, 100));
      now = await counts();
    }
    expect(now).toEqual(before);
    // And the server still answers.
    expect((await call(t, 'GET', '/api/samples', { token: alice.token })).status).toBe(200);
  });
});

describe('GET /api/samples', () => {
  it("lists only the caller's own samples, newest first", async () => {
    const first = await submit(bob, submission({ ...VALID_FIELDS, itemName: 'Bob first' }));
    const second = await submit(bob, submission({ ...VALID_FIELDS, itemName: 'Bob second' }));
    const res = await call(t, 'GET', '/api/samples', { token: bob.token });
    expect(res.status).toBe(200);
    const list = res.body as OwnSampleListItem[];
    expect(list.map((s) => s.id)).toEqual([(second.body as Sample).id, (first.body as Sample).id]);
    // The documented list fields (docs/product/api.md) and nothing of the full record (that is GET /api/samples/{id}).
    for (const row of list) expect(ownSampleListItem.strict().safeParse(row).success).toBe(true);
    expect(Object.keys(list[0] ?? {}).sort()).toEqual(Object.keys(ownSampleListItem.shape).sort());
    expect(list[0]).not.toHaveProperty('description');
    expect(list[0]).not.toHaveProperty('submitterEmail');
    expect(list[0]).toMatchObject({
      itemName: 'Bob second',
      status: 'submitted',
      reportCode: null,
      expertValuation: true,
      submissionDate: expect.any(String),
    });
  });

  it('gives each list row the same values as the sample page (the list is read as text rows)', async () => {
    const created = (await submit(bob, submission({ ...VALID_FIELDS, itemName: 'Bob çà et là' })))
      .body as Sample;
    const list = (await call(t, 'GET', '/api/samples', { token: bob.token })).body as OwnSampleListItem[];
    const row = list.find((s) => s.id === created.id);
    const page = (await call(t, 'GET', `/api/samples/${created.id}`, { token: bob.token })).body as Record<
      string,
      unknown
    >;
    expect(row).toBeDefined();
    const compared: string[] = [];
    for (const [key, value] of Object.entries(row ?? {})) {
      // The page has no thumbnail (it lists the files) and no collection link.
      if (!(key in page)) continue;
      expect([key, value]).toEqual([key, page[key]]);
      compared.push(key);
    }
    expect(compared.length).toBeGreaterThanOrEqual(Object.keys(row ?? {}).length - 3);
    // Timestamps leave as ISO 8601 in UTC with milliseconds, as everywhere else.
    expect(row?.submissionDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('answers 401 without a token', async () => {
    expect((await call(t, 'GET', '/api/samples')).status).toBe(401);
  });
});

describe('GET /api/samples/{id}', () => {
  it('shows a sample to its owner, staff and admins, and 404 to another customer', async () => {
    const created = (await submit(alice, submission({ ...VALID_FIELDS, itemName: 'Private Brooch' })))
      .body as Sample;
    for (const who of [alice, staff, admin]) {
      const res = await call(t, 'GET', `/api/samples/${created.id}`, { token: who.token });
      expect(res.status).toBe(200);
      expect((res.body as SampleDetail).itemName).toBe('Private Brooch');
    }
    const foreign = await call(t, 'GET', `/api/samples/${created.id}`, { token: bob.token });
    const missing = await call(t, 'GET', '/api/samples/999999', { token: bob.token });
    expect(foreign.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(foreign.body).toEqual(missing.body);
    expect((await call(t, 'GET', '/api/samples/abc', { token: bob.token })).status).toBe(400);
    expect((await call(t, 'GET', `/api/samples/${created.id}`)).status).toBe(401);
  });

  it('carries the assigned staff member by name', async () => {
    const created = (await submit(alice)).body as Sample;
    await t.db.update(samples).set({ assignedStaffId: staff.id }).where(eq(samples.id, created.id));
    const res = await call(t, 'GET', `/api/samples/${created.id}`, { token: alice.token });
    expect((res.body as SampleDetail).assignedStaff).toEqual({
      firstName: staff.firstName,
      lastName: staff.lastName,
    });
  });
});
