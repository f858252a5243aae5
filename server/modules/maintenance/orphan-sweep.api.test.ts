import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createUser, startTestApp, type TestApp } from '../../../tests/support/test-app';
import { users } from '../../db/schema';
import { sweepOrphans } from './orphan-sweep';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1]);

describe('orphan sweep', () => {
  it('removes files without a row and unfinished temp files, keeps referenced and young files', async () => {
    const owner = await createUser(t, { role: 'staff' });
    await t.storage.put('profile/referenced.jpg', jpeg);
    await t.storage.put('signature/referenced.png', jpeg);
    await t.db
      .update(users)
      .set({ profileImageUrl: 'profile/referenced.jpg', signature: 'signature/referenced.png' })
      .where(eq(users.id, owner.id));
    await t.storage.put('uploads/orphan.jpg', jpeg);
    await t.storage.put('reports/ORPHAN23-r1.pdf', Buffer.from('%PDF-1.4'));
    writeFileSync(join(t.filesDir, 'uploads', 'killed.jpg.tmp-abcdef'), 'half a file');

    // Young files are left alone: another instance may be about to commit their rows.
    const young = await sweepOrphans({ db: t.db, storage: t.storage, graceMs: 60_000 });
    expect(young).toEqual({ incomplete: [], orphans: [], missing: [] });
    expect(await t.storage.exists('uploads/orphan.jpg')).toBe(true);

    const swept = await sweepOrphans({ db: t.db, storage: t.storage, graceMs: 0 });
    expect(swept.incomplete).toEqual(['uploads/killed.jpg.tmp-abcdef']);
    expect(swept.orphans.sort()).toEqual(['reports/ORPHAN23-r1.pdf', 'uploads/orphan.jpg']);
    expect(swept.missing).toEqual([]);
    expect(await t.storage.exists('profile/referenced.jpg')).toBe(true);
    expect(await t.storage.exists('signature/referenced.png')).toBe(true);
    expect(await t.storage.exists('uploads/orphan.jpg')).toBe(false);

    // Still served after the sweep.
    const image = await call(t, 'GET', '/Uploads/profile/referenced.jpg', { token: owner.token });
    expect(image.status).toBe(200);
  });

  it('reports rows whose file is missing without touching them', async () => {
    const u = await createUser(t, { role: 'staff' });
    await t.db.update(users).set({ signature: 'signature/gone.png' }).where(eq(users.id, u.id));
    const swept = await sweepOrphans({ db: t.db, storage: t.storage, graceMs: 0 });
    expect(swept.missing).toContain('signature/gone.png');
  });
});
