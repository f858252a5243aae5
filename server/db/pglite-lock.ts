import { openSync, readFileSync, unlinkSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';

// PGlite is PostgreSQL in this process: two processes that open the same directory (`npm start`
// and `npm run seed:demo` side by side, or two instances on one DATA_DIR) both write its files, and
// the server then spins on the database at full CPU without answering, even /api/health, and
// ignores SIGTERM (found on 2026-11-27 by running the demo seed beside a started product). So the
// directory is claimed by a lock file naming the process; a second process is refused with a
// message that says what to do, and a lock left by a process that no longer runs is taken over.

export const PGLITE_LOCK_FILE = 'vl-open.pid';

export class DatabaseInUseError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `The database in ${dir} is open in another process (pid ${pid}). Stop that process first: ` +
        'the embedded database (PGlite) serves one process at a time; several instances need PostgreSQL (DATABASE_URL).',
    );
    this.name = 'DatabaseInUseError';
  }
}

const running = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, as another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Claims `dir` for this process; answers the release (which removes the file if it is still ours). */
export function claimPgliteDir(dir: string): () => void {
  const file = join(dir, PGLITE_LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          if (readFileSync(file, 'utf8').trim() === String(process.pid)) unlinkSync(file);
        } catch {
          // Already gone.
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let holder = Number.NaN;
    try {
      holder = Number(readFileSync(file, 'utf8').trim());
    } catch {
      continue; // Removed meanwhile: try again.
    }
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && running(holder))
      throw new DatabaseInUseError(dir, holder);
    // Left by a process that is gone (or by this one): remove it and claim again.
    try {
      unlinkSync(file);
    } catch {
      // Another process took it over first; the next attempt sees its pid.
    }
  }
  throw new Error(`could not claim the database directory ${dir}`);
}
