import type { Readable } from 'node:stream';

/**
 * Where uploaded files, images and issued report PDFs live. Keys are relative paths such as
 * `uploads/abc.jpg` or `reports/ABCD2345-r1.pdf`; routes never touch the disk directly, so an
 * object store can replace the disk implementation.
 */
export interface Storage {
  /** Streams `body` to `key`; the key appears only once the write is complete. Returns the byte count. */
  put(key: string, body: Readable | Buffer): Promise<{ size: number }>;
  get(key: string): Promise<Readable>;
  read(key: string): Promise<Buffer>;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  /** Every stored key under a prefix (for consistency checks and backups). */
  list(prefix: string): Promise<string[]>;
  /** When the object at `key` was last written; null when there is none (orphan sweeps use it). */
  modifiedAt(key: string): Promise<Date | null>;
  /**
   * Removes unfinished writes older than `olderThanMs` left by a process killed mid-write (disk:
   * `*.tmp-*` files). Returns the removed names. Object stores have none: a PUT is atomic.
   */
  sweepIncomplete(olderThanMs: number): Promise<string[]>;
}

export class StorageKeyError extends Error {}

const SAFE_KEY = /^[a-z]+\/[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/;

/** Rejects anything that could leave the storage root (`..`, absolute paths, odd characters). */
export function assertSafeKey(key: string): string {
  if (!SAFE_KEY.test(key) || key.includes('..')) throw new StorageKeyError(`unsafe storage key`);
  return key;
}
