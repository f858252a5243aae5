import { chmodSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

// The embedded database's files are the lab's whole record: owner-only, like every other file under
// DATA_DIR (docs/product/security.md). PGlite's file layer creates its files 0666 whatever the
// process umask, so the folder is tightened when the database opens and again when it closes. In
// between, the folder itself (0700, and DATA_DIR 0700 above it) keeps other users out of any file
// PGlite creates while running.

/** Sets every folder under `root` (itself included) to 0700 and every file to 0600. */
export function restrictToOwner(root: string): void {
  const walk = (path: string) => {
    const stat = lstatSync(path, { throwIfNoEntry: false });
    if (!stat || stat.isSymbolicLink()) return;
    if (stat.isDirectory()) {
      if ((stat.mode & 0o777) !== 0o700) chmodSync(path, 0o700);
      for (const name of readdirSync(path)) walk(join(path, name));
    } else if ((stat.mode & 0o777) !== 0o600) chmodSync(path, 0o600);
  };
  walk(root);
}
