import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SampleDetail } from '../../common/contracts/samples';
import { largeJpeg } from '../fixtures/photos';
import { type PostgresCluster, startPostgresCluster } from '../support/postgres';
import { type Product, startProduct } from '../support/product';
import { call } from '../support/test-app';
import { SUBMISSION_FIELDS } from '../support/factories';
import { START_TIMEOUT, createDatabase, registerAndLogin, waitFor } from './helpers';

// The server killed with SIGKILL while it makes a submission's photo copies (docs/product/photos.md):
// after a restart on the same DATA_DIR and database every photo gets its copies, none is lost.

const PHOTOS = 10;

let cluster: PostgresCluster;
let photo: Buffer;
beforeAll(async () => {
  [cluster, photo] = await Promise.all([startPostgresCluster(), largeJpeg(4000, 3000)]);
});
afterAll(() => cluster?.stop());

describe.each(['pglite', 'postgres'] as const)('photo copies survive SIGKILL on %s', (kind) => {
  let dataDir: string;
  let env: Record<string, string>;
  let product: Product | undefined;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), `vl-photos-${kind}-`));
    env = {};
    if (kind === 'postgres') env.DATABASE_URL = await createDatabase(cluster.url, cluster.urlFor);
  });
  afterAll(async () => {
    await product?.stop('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('killed with some copies made and some not: after a restart every photo has its copies', async () => {
    product = await startProduct(env, { dataDir, startTimeoutMs: START_TIMEOUT });
    const customer = await registerAndLogin(product.url);
    const running = product;
    const photos = (d: SampleDetail) => d.files.filter((f) => f.fileCategory === 'photo');
    const detail = async (id: number) =>
      (await call(running, 'GET', `/api/samples/${id}`, { token: customer.token })).body as SampleDetail;

    // Kill in the middle: some photos done, some still processing. Copies of twelve-megapixel photos
    // take a while each; should a fast machine finish a whole submission between two looks, submit again.
    let sampleId = 0;
    for (let round = 0; round < 3 && !sampleId; round++) {
      const form = new FormData();
      for (const [k, v] of Object.entries(SUBMISSION_FIELDS)) form.append(k, v);
      for (let i = 0; i < PHOTOS; i++)
        form.append('photos', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), `p${i}.jpg`);
      const created = await call(running, 'POST', '/api/samples', { token: customer.token, form });
      expect(created.status).toBe(201);
      const id = (created.body as { id: number }).id;
      const mid = await waitFor(
        'a submission half processed',
        async () => {
          const p = photos(await detail(id));
          const done = p.filter((f) => !f.processing).length;
          return done === PHOTOS ? 'all' : done > 0 ? 'mid' : undefined;
        },
        120_000,
      );
      if (mid === 'mid') sampleId = id;
    }
    expect(sampleId).toBeGreaterThan(0);
    await product.stop('SIGKILL');
    product = undefined;

    product = await startProduct(env, { dataDir, startTimeoutMs: START_TIMEOUT });
    const restarted = product;
    const after = await waitFor(
      'every photo with copies after the restart',
      async () => {
        const d = (await call(restarted, 'GET', `/api/samples/${sampleId}`, { token: customer.token }))
          .body as SampleDetail;
        return photos(d).every((f) => !f.processing && f.displayUrl) ? d : undefined;
      },
      120_000,
    );
    for (const f of photos(after)) {
      const res = await fetch(`${restarted.url}${f.displayUrl}`, {
        headers: { authorization: `Bearer ${customer.token}` },
      });
      expect(res.status).toBe(200);
      const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      expect([meta.format, meta.width, meta.exif]).toEqual(['jpeg', 1600, undefined]);
    }
  });
});
