import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SampleDetail } from '../../../common/contracts/samples';
import { imageTooLargeMessage } from '../../../common/domain/uploads';
import {
  bombJpeg,
  bombPng,
  heicBomb,
  phoneHeic,
  rotatedJpeg,
  withIspe,
} from '../../../tests/fixtures/photos';
import { SUBMISSION_FIELDS } from '../../../tests/support/factories';
import { call, createUser, startTestApp, type TestApp, type TestUser } from '../../../tests/support/test-app';
import { sampleFiles, samples } from '../../db/schema';
import { listJobs } from '../../jobs/jobs';
import { PHOTO_COPIES_FAIR_KEY_PREFIX, PHOTO_COPIES_QUEUE } from './photo-copies.job';

// No image can stall the server (docs/product/security.md, "Images"): an image whose header declares
// more than 50 megapixels is refused before anything decodes it, and photos are decoded in a child
// process with a time and a memory limit while the server keeps answering.

/** Health may answer this late at most while a photo is processed (the machine may be busy). */
const HEALTH_BOUND_MS = 1000;
const POLL_EVERY_MS = 100;

function submission(photos: [string, Buffer][], documents: [string, Buffer][] = []) {
  const form = new FormData();
  for (const [k, v] of Object.entries(SUBMISSION_FIELDS)) form.append(k, v);
  for (const [name, bytes] of photos) form.append('photos', new Blob([new Uint8Array(bytes)]), name);
  for (const [name, bytes] of documents) form.append('documents', new Blob([new Uint8Array(bytes)]), name);
  return form;
}

async function stored(t: TestApp) {
  const [s] = await t.db.select({ n: count() }).from(samples);
  const [f] = await t.db.select({ n: count() }).from(sampleFiles);
  return {
    samples: s?.n ?? 0,
    files: f?.n ?? 0,
    jobs: (await listJobs(t.db, { queue: PHOTO_COPIES_QUEUE })).length,
  };
}

/**
 * Polls GET /api/health every POLL_EVERY_MS until `done()` says so (asked on its own, every half
 * second); answers each poll's delay from the moment it was due, so a blocked event loop counts, not
 * only a slow answer.
 */
async function pollHealthUntil(t: TestApp, done: () => Promise<boolean>, timeoutMs: number) {
  let finished = false;
  const checking = (async () => {
    while (!finished) {
      await new Promise((r) => setTimeout(r, 500));
      if (await done()) finished = true;
    }
  })();
  const delays: number[] = [];
  const started = performance.now();
  try {
    for (let k = 0; !finished; k++) {
      const due = started + k * POLL_EVERY_MS;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const res = await fetch(`${t.url}/api/health`);
      expect(res.status).toBe(200);
      delays.push(performance.now() - due);
      if (performance.now() - started > timeoutMs) throw new Error(`not done within ${timeoutMs} ms`);
    }
  } finally {
    finished = true;
    await checking;
  }
  return delays;
}

describe('images larger than 50 megapixels are refused before decoding', () => {
  let t: TestApp;
  let customer: TestUser;
  let staff: TestUser;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startTestApp({}, { runJobs: false });
    [customer, staff, admin] = await Promise.all([
      createUser(t),
      createUser(t, { role: 'staff' }),
      createUser(t, { role: 'admin' }),
    ]);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('two 8192×8192 HEIC bombs in one submission: 413 with the limit, nothing stored, nothing queued', async () => {
    const before = await stored(t);
    // The second lies in its ispe box (512×512); its coded picture still declares 8192×8192.
    const res = await call(t, 'POST', '/api/samples', {
      token: customer.token,
      form: submission([
        ['bomb-1.heic', heicBomb()],
        ['bomb-2.heic', withIspe(heicBomb(), 512, 512)],
      ]),
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: imageTooLargeMessage(8192, 8192) });
    expect(await stored(t)).toEqual(before);
  });

  it('each HEIC bomb alone is refused, the lying one by its coded picture size', async () => {
    for (const bomb of [heicBomb(), withIspe(heicBomb(), 512, 512)]) {
      const res = await call(t, 'POST', '/api/samples', {
        token: customer.token,
        form: submission([['bomb.heic', bomb]]),
      });
      expect(res.status).toBe(413);
      expect((res.body as { message: string }).message).toBe(imageTooLargeMessage(8192, 8192));
    }
  });

  it('a PNG bomb and a JPEG bomb are refused, as photos and as documents', async () => {
    const before = await stored(t);
    const png = bombPng(8192, 8192);
    const jpeg = await bombJpeg(9000, 6000);
    for (const form of [
      submission([['bomb.png', png]]),
      submission([['bomb.jpg', jpeg]]),
      submission([], [['scan.png', png]]),
      submission([['fine.jpg', await rotatedJpeg()]], [['scan.jpg', jpeg]]),
    ]) {
      const res = await call(t, 'POST', '/api/samples', { token: customer.token, form });
      expect(res.status).toBe(413);
      expect((res.body as { message: string }).message).toMatch(/^Images must be at most 50 megapixels/);
    }
    expect(
      (await call(t, 'POST', '/api/samples', { token: customer.token, form: submission([['b.png', png]]) }))
        .body,
    ).toEqual({
      message: imageTooLargeMessage(8192, 8192),
    });
    expect(await stored(t)).toEqual(before);
  });

  it('profile images, signatures and the lab logo are held to the same limit', async () => {
    const png = bombPng(8192, 8192);
    const profile = new FormData();
    profile.append('profileImage', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'me.png');
    const p = await call(t, 'PUT', '/api/users/profile', { token: customer.token, form: profile });
    expect(p.status).toBe(413);
    expect(p.body).toEqual({ message: imageTooLargeMessage(8192, 8192) });

    const signature = new FormData();
    signature.append(
      'signature',
      new Blob([new Uint8Array(await bombJpeg())], { type: 'image/jpeg' }),
      's.jpg',
    );
    const s = await call(t, 'PUT', '/api/users/profile', { token: staff.token, form: signature });
    expect(s.status).toBe(413);
    expect(s.body).toEqual({ message: imageTooLargeMessage(9000, 6000) });

    const logo = new FormData();
    logo.append('settings', JSON.stringify({ labName: 'Bomb Lab' }));
    logo.append('logo', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'logo.png');
    const l = await call(t, 'POST', '/api/lab/settings', { token: admin.token, form: logo });
    expect(l.status).toBe(413);
    expect(l.body).toEqual({ message: imageTooLargeMessage(8192, 8192) });
  });

  it('a HEIC file whose description cannot be read is refused as unreadable, not decoded', async () => {
    const cut = heicBomb().subarray(0, 200);
    const res = await call(t, 'POST', '/api/samples', {
      token: customer.token,
      form: submission([['cut.heic', cut]]),
    });
    expect(res.status).toBe(415);
  });

  it("a phone's 12 MP HEIC is accepted and its copy job takes turns by its customer", async () => {
    const res = await call(t, 'POST', '/api/samples', {
      token: customer.token,
      form: submission([['phone.heic', phoneHeic()]]),
    });
    expect(res.status).toBe(201);
    const [job] = await listJobs(t.db, { queue: PHOTO_COPIES_QUEUE, state: 'pending' });
    expect(job?.fairKey).toBe(`${PHOTO_COPIES_FAIR_KEY_PREFIX}${customer.id}`);
  });
});

describe('photos are decoded off the event loop', () => {
  let t: TestApp;
  let customer: TestUser;
  beforeAll(async () => {
    t = await startTestApp();
    customer = await createUser(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('while a 12 MP HEIC is decoded and copied, GET /api/health answers every 100 ms within the bound', async () => {
    const res = await call(t, 'POST', '/api/samples', {
      token: customer.token,
      form: submission([['phone.heic', phoneHeic()]]),
    });
    expect(res.status).toBe(201);
    const id = (res.body as { id: number }).id;
    const photo = async () => {
      const d = (await call(t, 'GET', `/api/samples/${id}`, { token: customer.token })).body as SampleDetail;
      return d.files.find((f) => f.fileCategory === 'photo');
    };
    const delays = await pollHealthUntil(t, async () => (await photo())?.processing === false, 180_000);
    const done = await photo();
    expect(done?.displayUrl).toBeTruthy();
    expect(delays.length).toBeGreaterThan(5);
    expect(Math.max(...delays)).toBeLessThan(HEALTH_BOUND_MS);
  }, 240_000);
});

describe('the copy process has a time and a memory limit', () => {
  for (const [limit, env] of [
    ['time', { PHOTO_COPY_TIMEOUT_SECONDS: '0.05' }],
    ['memory', { PHOTO_COPY_MEMORY_MB: '16' }],
  ] as const) {
    it(`a photo over the ${limit} limit is given up: its copies are marked failed, the original kept`, async () => {
      const t = await startTestApp(env, { runJobs: false });
      try {
        const customer = await createUser(t);
        const res = await call(t, 'POST', '/api/samples', {
          token: customer.token,
          form: submission([['phone.heic', phoneHeic()]]),
        });
        expect(res.status).toBe(201);
        const id = (res.body as { id: number }).id;
        expect(await t.app.deps.jobs.runDue()).toBe(1);
        const [row] = await t.db.select().from(sampleFiles).where(eq(sampleFiles.sampleId, id));
        expect(row?.copiesState).toBe('failed');
        const d = (await call(t, 'GET', `/api/samples/${id}`, { token: customer.token }))
          .body as SampleDetail;
        expect(d.files[0]).toMatchObject({ processing: false, displayUrl: null, thumbnailUrl: null });
        const original = await fetch(`${t.url}/Uploads/${row?.fileName}`, {
          headers: { authorization: `Bearer ${customer.token}` },
        });
        expect(original.status).toBe(200);
        // Read to the end: an unread body keeps its connection busy and the server's close waits for it.
        expect((await original.arrayBuffer()).byteLength).toBe(phoneHeic().length);
        expect((await call(t, 'GET', '/api/health')).status).toBe(200);
      } finally {
        await t.close();
      }
    }, 180_000);
  }
});
