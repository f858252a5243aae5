import { Readable } from 'node:stream';
import { expect, it } from 'vitest';
import { type Storage, StorageKeyError } from './storage';

const read = async (s: Readable) => {
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks);
};

/**
 * The behaviour every Storage implementation promises (disk, S3). Called inside a `describe` by each
 * implementation's test with a factory for a fresh, empty store.
 */
export function storageContract(make: () => Storage) {
  it('puts a buffer and reads it back by get, read and exists', async () => {
    const s = make();
    const body = Buffer.from('hello storage');
    expect(await s.put('uploads/a1.jpg', body)).toEqual({ size: body.length });
    expect(await s.exists('uploads/a1.jpg')).toBe(true);
    expect(await s.read('uploads/a1.jpg')).toEqual(body);
    expect(await read(await s.get('uploads/a1.jpg'))).toEqual(body);
  });

  it('streams a large body and counts its bytes', async () => {
    const s = make();
    const part = Buffer.alloc(256 * 1024, 7);
    const stream = Readable.from(
      (function* () {
        for (let i = 0; i < 12; i++) yield part;
      })(),
    );
    expect(await s.put('reports/BIG2345A-r1.pdf', stream)).toEqual({ size: 12 * part.length });
    const back = await s.read('reports/BIG2345A-r1.pdf');
    expect(back.length).toBe(12 * part.length);
    expect(back.every((b) => b === 7)).toBe(true);
  });

  it('overwrites an existing key with the new bytes', async () => {
    const s = make();
    await s.put('logo/logo.png', Buffer.from('one'));
    await s.put('logo/logo.png', Buffer.from('two!'));
    expect((await s.read('logo/logo.png')).toString()).toBe('two!');
  });

  it('answers a missing key: exists false, read and get reject, delete is a no-op', async () => {
    const s = make();
    expect(await s.exists('uploads/missing.jpg')).toBe(false);
    await expect(s.read('uploads/missing.jpg')).rejects.toThrow();
    await expect(s.get('uploads/missing.jpg')).rejects.toThrow();
    await expect(s.delete('uploads/missing.jpg')).resolves.toBeUndefined();
  });

  it('tells when a key was last written, null when absent', async () => {
    const s = make();
    const before = Date.now() - 5_000;
    await s.put('uploads/m1.jpg', Buffer.from('m'));
    const at = await s.modifiedAt('uploads/m1.jpg');
    expect(at).toBeInstanceOf(Date);
    expect(at?.getTime()).toBeGreaterThan(before);
    expect(await s.modifiedAt('uploads/none.jpg')).toBeNull();
    expect(await s.sweepIncomplete(0)).toEqual([]);
  });

  it('deletes a key', async () => {
    const s = make();
    await s.put('profile/p1.jpg', Buffer.from('x'));
    await s.delete('profile/p1.jpg');
    expect(await s.exists('profile/p1.jpg')).toBe(false);
  });

  it('lists the keys under one prefix only', async () => {
    const s = make();
    await s.put('uploads/l1.jpg', Buffer.from('1'));
    await s.put('uploads/l2.png', Buffer.from('2'));
    await s.put('signature/l3.png', Buffer.from('3'));
    expect((await s.list('uploads')).sort()).toEqual(['uploads/l1.jpg', 'uploads/l2.png']);
    expect((await s.list('uploads/')).sort()).toEqual(['uploads/l1.jpg', 'uploads/l2.png']);
    expect(await s.list('signature')).toEqual(['signature/l3.png']);
    expect(await s.list('logo')).toEqual([]);
  });

  it('refuses unsafe keys before touching the store', async () => {
    const s = make();
    const unsafe = [
      '../etc/passwd',
      'uploads/../../secret',
      '/etc/passwd',
      'uploads/a/b.jpg',
      'uploads/.hidden',
      'uploads/',
      'Uploads/x.jpg',
      'uploads/x y.jpg',
      'uploads/x\u0000.jpg',
      'uploads\\..\\x',
    ];
    for (const key of unsafe) {
      await expect(s.put(key, Buffer.from('x')), key).rejects.toBeInstanceOf(StorageKeyError);
      await expect(s.read(key), key).rejects.toBeInstanceOf(StorageKeyError);
      // Nothing can exist at an unsafe key: `exists` answers false rather than throwing.
      expect(await s.exists(key), key).toBe(false);
      await expect(s.delete(key), key).rejects.toBeInstanceOf(StorageKeyError);
    }
  });

  it('never shows a partial object: a failing stream leaves no key behind', async () => {
    const s = make();
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(64 * 1024, 1));
        this.destroy(new Error('client went away'));
      },
    });
    await expect(s.put('uploads/partial.jpg', failing)).rejects.toThrow();
    expect(await s.exists('uploads/partial.jpg')).toBe(false);
    expect(await s.list('uploads')).toEqual([]);
  });
}
