import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { access, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertSafeKey, type Storage, StorageKeyError } from './storage';

/** Local-disk storage under DATA_DIR/files: writes go to a temp name and are renamed when complete. */
export function createDiskStorage(root: string): Storage {
  const base = resolve(root);
  const pathOf = (key: string) => join(base, assertSafeKey(key));

  return {
    async put(key, body) {
      const target = pathOf(key);
      const temp = `${target}.tmp-${randomBytes(6).toString('hex')}`;
      // The folder usually exists: create it only when the first write says it is missing (one
      // thread-pool round trip less per upload than an mkdir before every write).
      const inFolder = async <T>(write: () => Promise<T>): Promise<T> => {
        try {
          return await write();
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
          await mkdir(dirname(target), { recursive: true });
          return write();
        }
      };
      try {
        if (Buffer.isBuffer(body)) {
          await inFolder(() => writeFile(temp, body, { flag: 'wx' }));
          await rename(temp, target);
          return { size: body.length };
        }
        let size = 0;
        const counter = new Transform({
          transform(chunk: Buffer, _enc, done) {
            size += chunk.length;
            done(null, chunk);
          },
        });
        const out = await inFolder(
          () =>
            new Promise<WriteStream>((resolve, reject) => {
              const stream = createWriteStream(temp, { flags: 'wx' });
              stream.once('open', () => resolve(stream));
              stream.once('error', reject);
            }),
        );
        await pipeline(body, counter, out);
        await rename(temp, target);
        return { size };
      } catch (err) {
        await rm(temp, { force: true });
        throw err;
      }
    },
    async get(key) {
      const path = pathOf(key);
      await access(path);
      return createReadStream(path);
    },
    async read(key) {
      return readFile(pathOf(key));
    },
    async exists(key) {
      try {
        await access(pathOf(key));
        return true;
      } catch {
        return false;
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
    async modifiedAt(key) {
      try {
        return (await stat(pathOf(key))).mtime;
      } catch (err) {
        if (err instanceof StorageKeyError) throw err;
        return null;
      }
    },
    async sweepIncomplete(olderThanMs) {
      const removed: string[] = [];
      const cutoff = Date.now() - olderThanMs;
      let folders: string[] = [];
      try {
        folders = await readdir(base);
      } catch {
        return removed;
      }
      for (const folder of folders) {
        let names: string[] = [];
        try {
          names = await readdir(join(base, folder));
        } catch {
          continue;
        }
        for (const name of names) {
          if (!/\.tmp-[0-9a-f]+$/.test(name)) continue;
          const path = join(base, folder, name);
          try {
            if ((await stat(path)).mtimeMs <= cutoff) {
              await rm(path, { force: true });
              removed.push(`${folder}/${name}`);
            }
          } catch {
            // vanished meanwhile: its writer finished or removed it
          }
        }
      }
      return removed;
    },
    async list(prefix) {
      const dir = join(base, prefix.replace(/\/+$/, ''));
      try {
        const names = await readdir(dir);
        return names.filter((n) => !n.includes('.tmp-')).map((n) => `${prefix.replace(/\/+$/, '')}/${n}`);
      } catch {
        return [];
      }
    },
  };
}
