import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';

// Secrets the server keeps under DATA_DIR (the generated JWT secret, the signing identity, the
// credential keys): owner-only (folder 0700, file 0600) and never seen half-written
// (docs/product/security.md).

/**
 * Reads a private file, or creates it once with `make()` when it does not exist yet, and returns
 * its content.
 *
 * The new content is written to a private temporary file and then hard-linked to its final name:
 * the link either appears complete or fails because the name exists. Two instances starting
 * together on a shared DATA_DIR therefore both end up with the winner's content, and nobody ever
 * reads a half-written file.
 */
export function readOrCreatePrivateFile(file: string, make: () => string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const content = make();
  const tmp = writePrivateTemp(file, content);
  try {
    linkSync(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    // Another instance created it first: everyone uses theirs.
    return readFileSync(file, 'utf8');
  } finally {
    rmSync(tmp, { force: true });
  }
  syncFolder(file);
  return content;
}

/** Replaces a private file's content atomically (write a private temporary file, then rename over). */
export function replacePrivateFile(file: string, content: string): void {
  const tmp = writePrivateTemp(file, content);
  // rename() replaces the old file in one step: readers see either the old or the new content.
  renameSync(tmp, file);
  syncFolder(file);
}

/** Writes `content` to a new mode-0600 file beside `file` (creating the folder, 0700) and syncs it. */
function writePrivateTemp(file: string, content: string): string {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = openSync(tmp, 'wx', 0o600);
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return tmp;
}

/** Makes the file's new name durable: a crash right after does not lose the link or rename. */
function syncFolder(file: string): void {
  const dir = openSync(dirname(file), 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}
