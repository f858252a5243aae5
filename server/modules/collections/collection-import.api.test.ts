import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { and, count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CollectionDetail,
  IMPORT_COLUMNS,
  type ImportPreview,
  type ImportProblem,
  type ImportResult,
  importTemplateCsv,
  MAX_IMPORT_ROWS,
} from '../../../common/contracts/collections';
import { auditEvents, jobs, mailOutbox, sampleFiles, samples, sampleStatusHistory } from '../../db/schema';
import { NOT_AN_IMAGE, PHOTO_JPEG, PHOTO_PNG, submissionForm } from '../../../tests/support/factories';
import { call, createUser, startTestApp, type TestApp, type TestUser } from '../../../tests/support/test-app';

// Bulk intake (docs/product/collections.md): a CSV with the photos it names becomes the collection's
// items, all rows or none; every problem comes back with its row and field; a dry run stores nothing;
// the limits answer 413/415 with their message; only the owner imports. On both databases.

let t: TestApp;
let owner: TestUser;
let other: TestUser;
let staff: TestUser;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMITS: 'off' }, { runJobs: false });
  [owner, other, staff] = await Promise.all([
    createUser(t, { firstName: 'Margaret', lastName: 'Hale' }),
    createUser(t),
    createUser(t, { role: 'staff' }),
  ]);
});
afterAll(() => t?.close());

const HEADER = 'submitterName,submitterEmail,itemName,category,description,expertValuation,photos';
const row = (item: string, photos: string, extra: Partial<Record<'category' | 'email', string>> = {}) =>
  `Margaret Hale,${extra.email ?? 'margaret@example.com'},${item},${extra.category ?? 'furniture-decorative'},"A piece, described",true,${photos}`;

type Photo = { name: string; bytes: Buffer; type?: string };
const jpeg = (name: string): Photo => ({ name, bytes: PHOTO_JPEG, type: 'image/jpeg' });

function importForm(csv: string, photos: Photo[] = [], opts: { type?: string; name?: string } = {}) {
  const form = new FormData();
  form.append('file', new Blob([csv], { type: opts.type ?? 'text/csv' }), opts.name ?? 'estate.csv');
  for (const p of photos)
    form.append('photos', new Blob([new Uint8Array(p.bytes)], { type: p.type ?? 'image/jpeg' }), p.name);
  return form;
}

async function newCollection(as: TestUser = owner) {
  const res = await call(t, 'POST', '/api/collections', {
    token: as.token,
    json: { name: 'Estate of John Thornton', purpose: 'estate-planning' },
  });
  return (res.body as CollectionDetail).id;
}

const importCsv = (id: number, form: FormData, as: TestUser = owner, query = '') =>
  call(t, 'POST', `/api/collections/${id}/import${query}`, { token: as.token, form });

const ownerSampleCount = async () =>
  (await t.db.select({ n: count() }).from(samples).where(eq(samples.userId, owner.id)))[0]?.n ?? 0;
const uploadsOnDisk = () => {
  const dir = join(t.filesDir, 'uploads');
  return existsSync(dir) ? readdirSync(dir).length : 0;
};

describe('a clean import', () => {
  it('makes every row an item of the collection with its photos, history, copy jobs, audit event, and one mail', async () => {
    const id = await newCollection();
    const csv = [
      HEADER,
      row('Regency card table', 'table-1.jpg;table-2.png'),
      row('Bracket clock', 'clock.jpg'),
      row('Meissen group', 'meissen.jpg', { category: 'ceramics-pottery' }),
    ].join('\n');
    const photos = [
      jpeg('table-1.jpg'),
      { name: 'table-2.png', bytes: PHOTO_PNG, type: 'image/png' },
      jpeg('clock.jpg'),
      jpeg('meissen.jpg'),
    ];
    const mailsBefore = (await t.db.select({ n: count() }).from(mailOutbox))[0]?.n ?? 0;
    const res = await importCsv(id, importForm(csv, photos));
    expect(res.status, res.text).toBe(201);
    const body = res.body as ImportResult;
    expect(body.created).toBe(3);
    expect(body.collection.items.map((i) => i.itemName)).toEqual([
      'Regency card table',
      'Bracket clock',
      'Meissen group',
    ]);
    expect(body.collection.progress).toEqual({ total: 3, reported: 0 });
    expect(body.collection.items.every((i) => i.status === 'submitted')).toBe(true);

    const files = await t.db.select().from(sampleFiles).where(inArray(sampleFiles.sampleId, body.sampleIds));
    expect(files.map((f) => f.originalName).sort()).toEqual([
      'clock.jpg',
      'meissen.jpg',
      'table-1.jpg',
      'table-2.png',
    ]);
    expect(files.every((f) => f.copiesState === 'pending')).toBe(true);
    const copyJobs = await t.db.select().from(jobs).where(eq(jobs.queue, 'photo-copies'));
    const fileIds = new Set(files.map((f) => f.id));
    expect(copyJobs.filter((j) => fileIds.has((j.payload as { fileId: number }).fileId))).toHaveLength(4);
    const history = await t.db
      .select()
      .from(sampleStatusHistory)
      .where(inArray(sampleStatusHistory.sampleId, body.sampleIds));
    expect(history).toHaveLength(3);
    const events = await t.db
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.action, 'sample.imported'),
          inArray(auditEvents.subjectId, body.sampleIds.map(String)),
        ),
      );
    expect(events).toHaveLength(3);
    expect(events[0]).toMatchObject({
      actorId: owner.id,
      after: { collectionId: id, row: 2, itemName: 'Regency card table' },
    });
    const mails = await t.db.select().from(mailOutbox);
    expect(mails.length).toBe(mailsBefore + 1);
    const mail = mails.find((m) => m.kind === 'collectionImported');
    expect(mail?.toAddress).toBe(owner.email);
    expect(mail?.subject).toBe('We received 3 items for "Estate of John Thornton"');
  });

  it('accepts the template CSV as offered for download, with its photos', async () => {
    const id = await newCollection();
    const res = await importCsv(
      id,
      importForm(importTemplateCsv(), [jpeg('teapot-front.jpg'), jpeg('teapot-marks.jpg')]),
    );
    expect(res.status, res.text).toBe(201);
    expect((res.body as ImportResult).collection.items[0]?.itemName).toBe('George III silver teapot');
    expect(importTemplateCsv().split('\r\n')[0]).toBe(IMPORT_COLUMNS.join(','));
  });
});

describe('all rows or none', () => {
  it('refuses the whole CSV with every row’s problems, numbered as a spreadsheet shows them, and keeps nothing', async () => {
    const id = await newCollection();
    const before = await ownerSampleCount();
    const disk = uploadsOnDisk();
    const csv = [
      HEADER,
      row('Good chair', 'chair.jpg'),
      row('', 'missing.jpg', { email: 'not-an-email' }),
      row('Good desk', 'desk.jpg', { category: 'spaceship' }),
    ].join('\n');
    const res = await importCsv(id, importForm(csv, [jpeg('chair.jpg'), jpeg('desk.jpg')]));
    expect(res.status).toBe(400);
    const body = res.body as { message: string; errors: ImportProblem[] };
    expect(body.message).toBe('Nothing was imported: the CSV has 4 problems. Fix them and import again');
    expect(body.errors).toEqual([
      { row: 3, field: 'submitterEmail', path: 'rows.3.submitterEmail', message: 'Invalid email address' },
      { row: 3, field: 'itemName', path: 'rows.3.itemName', message: expect.any(String) },
      {
        row: 3,
        field: 'photos',
        path: 'rows.3.photos',
        message: 'Photo "missing.jpg" was not uploaded with the CSV',
      },
      { row: 4, field: 'category', path: 'rows.4.category', message: expect.any(String) },
    ]);
    expect(await ownerSampleCount()).toBe(before);
    expect(uploadsOnDisk()).toBe(disk);
    expect(
      ((await call(t, 'GET', `/api/collections/${id}`, { token: owner.token })).body as CollectionDetail)
        .items,
    ).toEqual([]);
  });

  it('names the unknown columns, the missing photo, a photo named twice and a photo no row names', async () => {
    const id = await newCollection();
    const csv = [
      `${HEADER},colour`,
      `${row('Vase', 'a.jpg')},blue`,
      `${row('Jug', 'a.jpg')},red`,
      row('Bowl', ''),
    ].join('\n');
    const res = await importCsv(id, importForm(csv, [jpeg('a.jpg'), jpeg('spare.jpg')]));
    expect(res.status).toBe(400);
    expect((res.body as { errors: ImportProblem[] }).errors).toEqual([
      { row: 1, field: 'colour', path: 'rows.1.colour', message: 'Unknown column "colour"' },
      { row: 3, field: 'photos', path: 'rows.3.photos', message: 'Photo "a.jpg" is already named in row 2' },
      { row: 4, field: 'photos', path: 'rows.4.photos', message: 'At least one photo is required.' },
      { row: null, field: 'photos', path: 'photos', message: 'Photo "spare.jpg" is not named in any row' },
    ]);
  });

  it('refuses a photo that is not an image (415) and keeps none of the others', async () => {
    const id = await newCollection();
    const disk = uploadsOnDisk();
    const csv = [HEADER, row('Chair', 'chair.jpg'), row('Desk', 'desk.png')].join('\n');
    const res = await importCsv(
      id,
      importForm(csv, [jpeg('chair.jpg'), { name: 'desk.png', bytes: NOT_AN_IMAGE, type: 'image/png' }]),
    );
    expect(res.status).toBe(415);
    expect(uploadsOnDisk()).toBe(disk);
  });
});

describe('dry run', () => {
  it('answers the rows as read and their problems, from photo names alone, and writes nothing', async () => {
    const id = await newCollection();
    const before = await ownerSampleCount();
    const disk = uploadsOnDisk();
    const csv = [HEADER, row('Chair', 'chair.jpg'), row('Desk', 'desk.jpg')].join('\n');
    const form = importForm(csv);
    form.append('photoNames', 'chair.jpg');
    const res = await importCsv(id, form, owner, '?dryRun=1');
    expect(res.status, res.text).toBe(200);
    const preview = res.body as ImportPreview;
    expect(preview.valid).toBe(false);
    expect(preview.columns).toEqual(HEADER.split(','));
    expect(preview.rows[0]).toEqual({
      row: 2,
      fields: {
        submitterName: 'Margaret Hale',
        submitterEmail: 'margaret@example.com',
        itemName: 'Chair',
        category: 'furniture-decorative',
        description: 'A piece, described',
        expertValuation: 'true',
      },
      photos: ['chair.jpg'],
    });
    expect(preview.errors).toEqual([
      {
        row: 3,
        field: 'photos',
        path: 'rows.3.photos',
        message: 'Photo "desk.jpg" was not uploaded with the CSV',
      },
    ]);
    // Sent photos count too, and nothing is stored.
    const fixed = await importCsv(
      id,
      importForm(csv, [jpeg('chair.jpg'), jpeg('desk.jpg')]),
      owner,
      '?dryRun=1',
    );
    expect((fixed.body as ImportPreview).valid).toBe(true);
    expect(await ownerSampleCount()).toBe(before);
    expect(uploadsOnDisk()).toBe(disk);
  });
});

describe('limits and refusals', () => {
  it('refuses more rows than allowed (413), a CSV over its size (413), another type (415), no CSV (400), an unreadable one (400)', async () => {
    const id = await newCollection();
    const many = [
      HEADER,
      ...Array.from({ length: MAX_IMPORT_ROWS + 1 }, (_, i) => row(`Item ${i}`, `p${i}.jpg`)),
    ].join('\n');
    const tooMany = await importCsv(id, importForm(many), owner, '?dryRun=1');
    expect(tooMany.status).toBe(413);
    expect(tooMany.body).toEqual({
      message: 'A CSV can hold at most 1,000 items: split it into several imports',
    });
    const huge = await importCsv(id, importForm(`${HEADER}\n${'x'.repeat(2 * 1024 * 1024 + 10)}`));
    expect(huge.status).toBe(413);
    expect(huge.body).toEqual({ message: 'The CSV file must be 2 MB or smaller' });
    const pdf = await importCsv(
      id,
      importForm('%PDF-1.4', [], { type: 'application/pdf', name: 'estate.pdf' }),
    );
    expect(pdf.status).toBe(415);
    const noCsv = new FormData();
    noCsv.append('photos', new Blob([new Uint8Array(PHOTO_JPEG)], { type: 'image/jpeg' }), 'a.jpg');
    const none = await importCsv(id, noCsv);
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ message: 'Choose a CSV file' });
    const broken = await importCsv(id, importForm(`${HEADER}\n"unclosed,quote`));
    expect(broken.status).toBe(400);
    expect((broken.body as { message: string }).message).toMatch(/^The CSV file could not be read: /);
    const empty = await importCsv(id, importForm(`${HEADER}\n`));
    expect(empty.status).toBe(400);
  });

  it('lets only the owner import: another customer 404, staff 403', async () => {
    const id = await newCollection();
    const csv = [HEADER, row('Chair', 'chair.jpg')].join('\n');
    expect((await importCsv(id, importForm(csv, [jpeg('chair.jpg')]), other)).status).toBe(404);
    expect((await importCsv(id, importForm(csv, [jpeg('chair.jpg')]), staff)).status).toBe(403);
  });
});

describe('the customer’s hourly limit', () => {
  it('counts an import as one submission to start, and its items in the hour afterwards', async () => {
    const limited = await startTestApp({ CUSTOMER_SUBMISSIONS_PER_HOUR: '2' }, { runJobs: false });
    try {
      const me = await createUser(limited);
      const c = await call(limited, 'POST', '/api/collections', {
        token: me.token,
        json: { name: 'Shop stock', purpose: 'sale-auction' },
      });
      const id = (c.body as CollectionDetail).id;
      const csv = [HEADER, row('One', 'one.jpg'), row('Two', 'two.jpg'), row('Three', 'three.jpg')].join(
        '\n',
      );
      const res = await call(limited, 'POST', `/api/collections/${id}/import`, {
        token: me.token,
        form: importForm(csv, [jpeg('one.jpg'), jpeg('two.jpg'), jpeg('three.jpg')]),
      });
      expect(res.status, res.text).toBe(201);
      const next = await call(limited, 'POST', '/api/samples', { token: me.token, form: submissionForm() });
      expect(next.status).toBe(429);
    } finally {
      await limited.close();
    }
  });
});
