import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite } from './client';
import { claimPgliteDir, DatabaseInUseError, PGLITE_LOCK_FILE } from './pglite-lock';

// One process at a time on a PGlite directory (server/db/pglite-lock.ts).

const dirs: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'vl-pglite-lock-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A pid that ran and has exited. */
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid ?? 999_999;

describe('the PGlite directory lock', () => {
  it('names this process while held and is gone once released', () => {
    const dir = freshDir();
    const release = claimPgliteDir(dir);
    expect(readFileSync(join(dir, PGLITE_LOCK_FILE), 'utf8')).toBe(String(process.pid));
    release();
    expect(existsSync(join(dir, PGLITE_LOCK_FILE))).toBe(false);
  });

  it('refuses a directory another running process holds, saying which and what to do', async () => {
    const dir = freshDir();
    // The parent (the test runner) runs, and is not this process.
    writeFileSync(join(dir, PGLITE_LOCK_FILE), String(process.ppid));
    expect(() => claimPgliteDir(dir)).toThrow(DatabaseInUseError);
    expect(() => claimPgliteDir(dir)).toThrow(`is open in another process (pid ${process.ppid})`);
    await expect(openPglite(dir)).rejects.toThrow(/Stop that process first/);
    // Nothing was taken over.
    expect(readFileSync(join(dir, PGLITE_LOCK_FILE), 'utf8')).toBe(String(process.ppid));
  });

  it('takes over a lock left by a process that no longer runs, or an unreadable one', () => {
    for (const left of [String(deadPid()), 'not a pid']) {
      const dir = freshDir();
      writeFileSync(join(dir, PGLITE_LOCK_FILE), left);
      const release = claimPgliteDir(dir);
      expect(readFileSync(join(dir, PGLITE_LOCK_FILE), 'utf8')).toBe(String(process.pid));
      release();
    }
  });

  it('openPglite holds the directory until close, then another opener may have it', async () => {
    const dir = freshDir();
    const database = await openPglite(dir);
    expect(readFileSync(join(dir, PGLITE_LOCK_FILE), 'utf8')).toBe(String(process.pid));
    await database.close();
    expect(existsSync(join(dir, PGLITE_LOCK_FILE))).toBe(false);
  }, 60_000);
});
