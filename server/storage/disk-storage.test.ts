import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { createDiskStorage } from './disk-storage';
import { storageContract } from './storage.contract';

const roots: string[] = [];
const fresh = () => {
  const root = mkdtempSync(join(tmpdir(), 'vl-disk-'));
  roots.push(root);
  return root;
};
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

describe('disk storage', () => {
  storageContract(() => createDiskStorage(fresh()));

  it('writes to a temp name and renames: while streaming, only a *.tmp-* file exists', async () => {
    const root = fresh();
    const s = createDiskStorage(root);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let sent = 0;
    const body = new Readable({
      async read() {
        if (sent === 1) await gate;
        if (sent === 2) return void this.push(null);
        sent++;
        this.push(Buffer.alloc(1024, 2));
      },
    });
    const done = s.put('uploads/slow.jpg', body);
    await new Promise((r) => setTimeout(r, 50));
    const during = readdirSync(join(root, 'uploads'));
    expect(during).toHaveLength(1);
    expect(during[0]).toMatch(/^slow\.jpg\.tmp-[0-9a-f]+$/);
    expect(await s.exists('uploads/slow.jpg')).toBe(false);
    expect(await s.list('uploads')).toEqual([]);
    release();
    await done;
    expect(readdirSync(join(root, 'uploads'))).toEqual(['slow.jpg']);
  });

  it('sweeps temp files left by a killed writer, only once they are older than the grace period', async () => {
    const root = fresh();
    const s = createDiskStorage(root);
    await s.put('uploads/keep.jpg', Buffer.from('k'));
    const { writeFileSync, utimesSync } = await import('node:fs');
    writeFileSync(join(root, 'uploads', 'dead.jpg.tmp-0a1b2c'), 'half');
    writeFileSync(join(root, 'uploads', 'live.jpg.tmp-3d4e5f'), 'in flight');
    const old = new Date(Date.now() - 3_600_000);
    utimesSync(join(root, 'uploads', 'dead.jpg.tmp-0a1b2c'), old, old);
    expect(await s.sweepIncomplete(600_000)).toEqual(['uploads/dead.jpg.tmp-0a1b2c']);
    expect(readdirSync(join(root, 'uploads')).sort()).toEqual(['keep.jpg', 'live.jpg.tmp-3d4e5f']);
    expect(await s.sweepIncomplete(0)).toEqual(['uploads/live.jpg.tmp-3d4e5f']);
    expect(readdirSync(join(root, 'uploads'))).toEqual(['keep.jpg']);
  });

  it('removes its temp file when the stream fails', async () => {
    const root = fresh();
    const s = createDiskStorage(root);
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(1024));
        this.destroy(new Error('boom'));
      },
    });
    await expect(s.put('uploads/f.jpg', failing)).rejects.toThrow();
    expect(readdirSync(join(root, 'uploads'))).toEqual([]);
  });
});
