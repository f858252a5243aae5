import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';

/**
 * Reads a key file, or creates it once with `make()` when it does not exist yet.
 *
 * The new content is written to a private temporary file (mode 0600) and then hard-linked to its
 * final name: the link either appears complete or fails because the name exists. Two instances
 * starting together on a shared DATA_DIR therefore both end up with the winner's keys, and nobody
 * ever reads a half-written file.
 */
export function readOrCreateKeyFile(file: string, make: () => string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const content = make();
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = openSync(tmp, 'wx', 0o600);
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(tmp, file);
    return content;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    // Another instance created it first: everyone uses theirs.
    return readFileSync(file, 'utf8');
  } finally {
    unlinkSync(tmp);
  }
}

/** Replaces a key file's content atomically (write a private temporary file, then rename over). */
export function replaceKeyFile(file: string, content: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = openSync(tmp, 'wx', 0o600);
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  // rename() replaces the old file in one step: readers see either the old or the new content.
  renameSync(tmp, file);
}
