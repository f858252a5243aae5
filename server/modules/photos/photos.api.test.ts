import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import exifReader from 'exif-reader';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ListThumbnail,
  OwnSampleListItem,
  SampleDetail,
  SampleFile,
} from '../../../common/contracts/samples';
import type { VerificationResponse } from '../../../common/contracts/verification';
import { DISPLAY_MAX_PX, THUMBNAIL_MAX_PX } from '../../../common/domain/photos';
import {
  heicFixture,
  isBlue,
  isRed,
  largeJpeg,
  pixel,
  rotatedJpeg,
  transparentPng,
} from '../../../tests/fixtures/photos';
import { valuationReport } from '../../../tests/support/factories';
import { call, createUser, startTestApp, type TestApp, type TestUser } from '../../../tests/support/test-app';
import { samples, sampleFiles } from '../../db/schema';
import { listJobs } from '../../jobs/jobs';
import { backfillPhotoCopies } from './backfill-photos';
import { displayCopyForDocument, photoCopyKey } from './make-photo-copies';
import { PHOTO_COPIES_QUEUE } from './photo-copies.job';

const PDF = readFileSync(join(import.meta.dirname, '../../../tests/fixtures/document.pdf'));

let t: TestApp;
let owner: TestUser;
let other: TestUser;
let staff: TestUser;
let admin: TestUser;
let originals: Record<string, Buffer>;
let sampleId: number;

const FIELDS = {
  submitterName: 'Owner',
  submitterEmail: 'owner@example.com',
  itemName: 'Carriage clock',
  category: 'other',
  description: 'A brass carriage clock',
  expertValuation: 'true',
};

async function submit(photos: [string, Buffer][], user = owner) {
  const form = new FormData();
  for (const [k, v] of Object.entries(FIELDS)) form.append(k, v);
  for (const [name, bytes] of photos) form.append('photos', new Blob([new Uint8Array(bytes)]), name);
  form.append('documents', new Blob([new Uint8Array(PDF)]), 'invoice.pdf');
  const res = await call(t, 'POST', '/api/samples', { token: user.token, form });
  expect(res.status).toBe(201);
  return (res.body as { id: number }).id;
}

const detail = async (id: number, user = owner) => {
  const res = await call(t, 'GET', `/api/samples/${id}`, { token: user.token });
  expect(res.status).toBe(200);
  return res.body as SampleDetail;
};
const get = (path: string, user?: TestUser) =>
  fetch(`${t.url}${path}`, { headers: user ? { authorization: `Bearer ${user.token}` } : {} });
/** Runs queued jobs until none is due (photo copies run one at a time). */
async function runJobs() {
  let ran = 0;
  for (let n = await t.app.deps.jobs.runDue(); n > 0; n = await t.app.deps.jobs.runDue()) ran += n;
  return ran;
}
/** This sample's row in the lab's two lists (the work list and the admin's paged list), as an admin. */
async function labListRows(id: number) {
  const work = (await call(t, 'GET', '/api/staff/samples', { token: admin.token })).body as (ListThumbnail & {
    id: number;
  })[];
  const page = (await call(t, 'GET', '/api/admin/samples?page=1&pageSize=50', { token: admin.token }))
    .body as (ListThumbnail & { id: number })[];
  return [work.find((s) => s.id === id), page.find((s) => s.id === id)];
}
const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());
const photoNamed = (d: SampleDetail, name: string) => {
  const f = d.files.find((x) => x.originalName === name);
  if (!f) throw new Error(`no ${name}`);
  return f;
};

/** A copy as served: JPEG, within its size, and without EXIF (so no GPS), XMP or orientation. */
async function fetchCopy(url: string | null, maxPx: number, user = owner) {
  expect(url).toBeTruthy();
  const res = await get(url as string, user);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('image/jpeg');
  const image = await bytes(res);
  const meta = await sharp(image).metadata();
  expect(meta.format).toBe('jpeg');
  expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBeLessThanOrEqual(maxPx);
  expect(meta.exif).toBeUndefined();
  expect(meta.xmp).toBeUndefined();
  expect(meta.orientation).toBeUndefined();
  return { image, meta };
}

beforeAll(async () => {
  // Jobs run only when a test says so, so the "still processing" state can be observed.
  t = await startTestApp({}, { runJobs: false });
  [owner, other, staff, admin] = await Promise.all([
    createUser(t),
    createUser(t),
    createUser(t, { role: 'staff' }),
    createUser(t, { role: 'admin' }),
  ]);
  originals = {
    'rotated.jpg': await rotatedJpeg(60, 40),
    'big.jpg': await largeJpeg(2400, 1800),
    'clear.png': await transparentPng(),
    'phone.heic': heicFixture(),
  };
  sampleId = await submit(Object.entries(originals));
});
afterAll(async () => {
  await t?.close();
});

describe('photo copies', () => {
  it('a submission stores one copy job per photo with its rows; the answer says processing until they ran', async () => {
    const queued = await listJobs(t.db, { queue: PHOTO_COPIES_QUEUE, state: 'pending' });
    const d = await detail(sampleId);
    const photos = d.files.filter((f) => f.fileCategory === 'photo');
    expect(photos).toHaveLength(4);
    expect(queued.map((j) => (j.payload as { fileId: number }).fileId).sort()).toEqual(
      photos.map((p) => p.id).sort(),
    );
    for (const p of photos)
      expect(p).toMatchObject({ processing: true, thumbnailUrl: null, displayUrl: null });
    const doc = d.files.find((f) => f.fileCategory === 'document');
    expect(doc).toMatchObject({ processing: false, thumbnailUrl: null, displayUrl: null });
    const list = (await call(t, 'GET', '/api/samples', { token: owner.token })).body as OwnSampleListItem[];
    expect(list.find((s) => s.id === sampleId)).toMatchObject({ photoProcessing: true, thumbnailUrl: null });
    for (const row of await labListRows(sampleId))
      expect(row).toMatchObject({ photoProcessing: true, thumbnailUrl: null });

    expect(await runJobs()).toBe(4);

    const after = await detail(sampleId);
    for (const p of after.files.filter((f) => f.fileCategory === 'photo')) {
      expect(p.processing).toBe(false);
      expect(p.thumbnailUrl).toBe(`/Uploads/photos/${p.id}/thumbnail`);
      expect(p.displayUrl).toBe(`/Uploads/photos/${p.id}/display`);
    }
    const listed = (
      (await call(t, 'GET', '/api/samples', { token: owner.token })).body as OwnSampleListItem[]
    ).find((s) => s.id === sampleId);
    expect(listed?.photoProcessing).toBe(false);
    expect(listed?.thumbnailUrl).toBe(photoNamed(after, 'rotated.jpg').thumbnailUrl);
    // The staff and admin lists show the same first photo (docs/product/photos.md).
    for (const row of await labListRows(sampleId))
      expect(row).toMatchObject({ photoProcessing: false, thumbnailUrl: listed?.thumbnailUrl });
    expect((await listJobs(t.db, { queue: PHOTO_COPIES_QUEUE, state: 'done' })).length).toBe(4);
  });

  it('every list shows each sample its own first photo (customer, work list, admin list)', async () => {
    const second = await submit([
      ['second-first.png', await transparentPng()],
      ['second-later.jpg', await rotatedJpeg(30, 20)],
    ]);
    await runJobs();
    const expected = new Map<number, string | null>();
    for (const id of [sampleId, second]) {
      const d = await detail(id);
      expected.set(id, d.files.find((f) => f.fileCategory === 'photo')?.thumbnailUrl ?? null);
    }
    expect(new Set(expected.values()).size).toBe(2);
    const own = (await call(t, 'GET', '/api/samples', { token: owner.token })).body as OwnSampleListItem[];
    for (const [id, url] of expected) {
      expect(own.find((s) => s.id === id)?.thumbnailUrl).toBe(url);
      for (const row of await labListRows(id)) expect(row?.thumbnailUrl).toBe(url);
    }
  });

  it('copies of an EXIF-rotated JPEG with GPS are upright JPEGs within their sizes, without EXIF or GPS', async () => {
    const photo = photoNamed(await detail(sampleId), 'rotated.jpg');
    for (const [url, max] of [
      [photo.thumbnailUrl, THUMBNAIL_MAX_PX],
      [photo.displayUrl, DISPLAY_MAX_PX],
    ] as const) {
      const { image, meta } = await fetchCopy(url, max);
      expect([meta.width, meta.height]).toEqual([40, 60]);
      expect(isRed(await pixel(image, 20, 5))).toBe(true);
      expect(isBlue(await pixel(image, 20, 55))).toBe(true);
      expect(image.includes(Buffer.from('TestCam'))).toBe(false);
    }
  });

  it('a large photo is scaled to 1600 px and 320 px; a PNG and a HEIC get JPEG copies', async () => {
    const d = await detail(sampleId);
    const big = photoNamed(d, 'big.jpg');
    expect((await fetchCopy(big.displayUrl, DISPLAY_MAX_PX)).meta.width).toBe(DISPLAY_MAX_PX);
    expect((await fetchCopy(big.thumbnailUrl, THUMBNAIL_MAX_PX)).meta.width).toBe(THUMBNAIL_MAX_PX);
    await fetchCopy(photoNamed(d, 'clear.png').displayUrl, DISPLAY_MAX_PX);
    const heic = photoNamed(d, 'phone.heic');
    expect(heic.fileType).toBe('image/heic');
    for (const url of [heic.thumbnailUrl, heic.displayUrl]) {
      const { image, meta } = await fetchCopy(url, DISPLAY_MAX_PX);
      expect([meta.width, meta.height]).toEqual([96, 64]);
      expect(isRed(await pixel(image, 10, 32))).toBe(true);
    }
  });

  it('the original stays byte for byte, GPS included, and only the owner, staff and admins get it', async () => {
    const d = await detail(sampleId);
    for (const [name, original] of Object.entries(originals)) {
      const f: SampleFile = photoNamed(d, name);
      for (const who of [owner, staff, admin]) {
        const res = await get(`/Uploads/${f.fileName}`, who);
        expect(res.status).toBe(200);
        expect((await bytes(res)).equals(original)).toBe(true);
      }
      expect((await get(`/Uploads/${f.fileName}`, other)).status).toBe(404);
      expect((await get(`/Uploads/${f.fileName}`)).status).toBe(401);
    }
    const rotated = await bytes(await get(`/Uploads/${photoNamed(d, 'rotated.jpg').fileName}`, owner));
    const exif = exifReader((await sharp(rotated).metadata()).exif as Buffer);
    expect(exif.GPSInfo?.GPSLatitude).toEqual([48, 51, 24]);
  });

  it('copies follow the sample: owner, staff and admins; another customer gets 404, a visitor 401', async () => {
    const photo = photoNamed(await detail(sampleId), 'rotated.jpg');
    for (const who of [owner, staff, admin])
      expect((await get(photo.thumbnailUrl ?? '', who)).status).toBe(200);
    const foreign = await get(photo.displayUrl ?? '', other);
    expect(foreign.status).toBe(404);
    expect((await get('/Uploads/photos/999999/display', other)).status).toBe(404);
    expect((await get(photo.displayUrl ?? '')).status).toBe(401);
    const doc = (await detail(sampleId)).files.find((f) => f.fileCategory === 'document');
    expect((await get(`/Uploads/photos/${doc?.id}/display`, owner)).status).toBe(404);
    expect((await get(`/Uploads/photos/${photo.id}/original`, owner)).status).toBe(400);
  });

  it("public verification links a report's photos without a token, only while its current revision shows them", async () => {
    const photo = photoNamed(await detail(sampleId), 'rotated.jpg');
    const other = photoNamed(await detail(sampleId), 'big.jpg');
    await t.db.update(samples).set({ assignedStaffId: staff.id }).where(eq(samples.id, sampleId));
    const issue = async (photoIds: number[]) => {
      const res = await call(t, 'POST', `/api/staff/samples/${sampleId}/report`, {
        token: staff.token,
        json: valuationReport(photoIds),
      });
      expect(res.status).toBe(200);
      return (res.body as { reportCode: string }).reportCode;
    };
    const linksOf = async (code: string) => {
      const res = await call(t, 'GET', `/api/reports/verify/${code.toLowerCase()}`);
      expect(res.status).toBe(200);
      return (res.body as VerificationResponse).photos.map((p) => p.url);
    };

    const code = await issue([photo.id]);
    const [path = ''] = await linksOf(code);
    expect(path).toBe(`/api/public/reports/${code}/photos/${photo.id}`);
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    expect((await sharp(await bytes(res)).metadata()).exif).toBeUndefined();
    // The code is read as verification reads it.
    expect((await get(`/api/public/reports/%20${code.toLowerCase()}/photos/${photo.id}`)).status).toBe(200);

    // Another photo of the sample, a document, a photo id that does not exist, another code: not found.
    const document = (await detail(sampleId)).files.find((f) => f.fileCategory === 'document');
    for (const wrong of [
      `/api/public/reports/${code}/photos/${other.id}`,
      `/api/public/reports/${code}/photos/${document?.id}`,
      `/api/public/reports/${code}/photos/999999`,
      `/api/public/reports/${code === 'ABCDEFGH' ? 'ABCDEFGJ' : 'ABCDEFGH'}/photos/${photo.id}`,
    ])
      expect((await get(wrong)).status, wrong).toBe(404);
    expect((await get(`/api/public/reports/${code}/photos/front`)).status).toBe(400);

    // A new revision without the photo closes its link at once and opens the new one.
    expect(await issue([other.id])).toBe(code);
    expect(await linksOf(code)).toEqual([`/api/public/reports/${code}/photos/${other.id}`]);
    expect((await get(path)).status).toBe(404);
    expect((await get(`/api/public/reports/${code}/photos/${other.id}`)).status).toBe(200);
  });

  it('a file with a photo signature that no decoder reads is marked failed: not processing, no URLs', async () => {
    const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(500, 9)]);
    const id = await submit([['broken.jpg', broken]]);
    await runJobs();
    const photo = photoNamed(await detail(id), 'broken.jpg');
    expect(photo).toMatchObject({ processing: false, thumbnailUrl: null, displayUrl: null });
    expect((await get(`/Uploads/${photo.fileName}`, owner)).status).toBe(200);
  });

  it('a refused submission queues no job', async () => {
    const before = (await listJobs(t.db, { queue: PHOTO_COPIES_QUEUE })).length;
    const form = new FormData();
    form.append('itemName', 'No services');
    form.append('photos', new Blob([new Uint8Array(originals['rotated.jpg'] as Buffer)]), 'x.jpg');
    expect((await call(t, 'POST', '/api/samples', { token: owner.token, form })).status).toBe(400);
    expect((await listJobs(t.db, { queue: PHOTO_COPIES_QUEUE })).length).toBe(before);
  });

  it('the backfill makes copies for photos stored before copies existed', async () => {
    const photo = photoNamed(await detail(sampleId), 'phone.heic');
    await t.db.update(sampleFiles).set({ copiesState: null }).where(eq(sampleFiles.id, photo.id));
    await t.storage.delete(photoCopyKey(photo.fileName, 'display'));
    expect(photoNamed(await detail(sampleId), 'phone.heic')).toMatchObject({
      processing: false,
      displayUrl: null,
    });
    const counts = await backfillPhotoCopies({ db: t.db, storage: t.storage });
    expect(counts.made).toBe(1);
    await fetchCopy(photoNamed(await detail(sampleId), 'phone.heic').displayUrl, DISPLAY_MAX_PX);
  });

  it('documents get the display copy, never the original', async () => {
    const photo = photoNamed(await detail(sampleId), 'rotated.jpg');
    const forPdf = await displayCopyForDocument({ db: t.db, storage: t.storage }, photo.id);
    expect(forPdf).not.toBeNull();
    expect((await sharp(forPdf as Buffer).metadata()).exif).toBeUndefined();
    const doc = (await detail(sampleId)).files.find((f) => f.fileCategory === 'document');
    expect(await displayCopyForDocument({ db: t.db, storage: t.storage }, doc?.id ?? 0)).toBeNull();
    // No photo job is left behind unfinished.
    expect(await listJobs(t.db, { queue: PHOTO_COPIES_QUEUE, state: 'pending' })).toEqual([]);
  });
});
