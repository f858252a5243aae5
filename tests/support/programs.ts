import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

// Every program outside node_modules that a test drives, in one table, and one rule for all of them:
// installed → the test runs; missing outside CI → the test is SKIPPED with a loud message naming the
// Debian package to install; missing with CI=true → a FAILURE (CI must install it: .ci/run).
// README.md ("Testing") lists the same programs and packages.

export const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_SHELL_PATH = process.env.CHROMIUM_SHELL_PATH ?? '/usr/bin/chromium-headless-shell';
export const REDIS_BIN = process.env.REDIS_BIN ?? '/usr/bin/redis-server';
export const NGINX_BIN = process.env.NGINX_BIN ?? '/usr/sbin/nginx';

export type Program = {
  /** What the message calls it. */
  name: string;
  /** An absolute path, or a bare command looked up on PATH. */
  path: string;
  /** The Debian package that provides it. */
  apt: string;
};

export const PROGRAMS = {
  postgres: { name: 'PostgreSQL 15 server (initdb)', path: join(PG_BIN, 'initdb'), apt: 'postgresql-15' },
  chromium: { name: 'Chromium', path: CHROMIUM_PATH, apt: 'chromium' },
  chromiumShell: {
    name: 'Chromium headless shell',
    path: CHROMIUM_SHELL_PATH,
    apt: 'chromium-headless-shell',
  },
  redis: { name: 'redis-server', path: REDIS_BIN, apt: 'redis-server' },
  nginx: { name: 'nginx', path: NGINX_BIN, apt: 'nginx-light' },
  pdftoppm: { name: 'pdftoppm', path: 'pdftoppm', apt: 'poppler-utils' },
  pdfsig: { name: 'pdfsig', path: 'pdfsig', apt: 'poppler-utils' },
  pdfinfo: { name: 'pdfinfo', path: 'pdfinfo', apt: 'poppler-utils' },
  pdffonts: { name: 'pdffonts', path: 'pdffonts', apt: 'poppler-utils' },
  pdftotext: { name: 'pdftotext', path: 'pdftotext', apt: 'poppler-utils' },
  certutil: { name: 'certutil', path: 'certutil', apt: 'libnss3-tools' },
  zbarimg: { name: 'zbarimg', path: 'zbarimg', apt: 'zbar-tools' },
} as const satisfies Record<string, Program>;

export const isCi = () => process.env.CI === 'true' || process.env.CI === '1';
const seen = new Map<string, boolean>();

/** Whether the program is there (an existing file, or a command on PATH). */
export function programInstalled(path: string): boolean {
  let ok = seen.get(path);
  if (ok === undefined) {
    ok = path.includes('/')
      ? existsSync(path)
      : spawnSync('sh', ['-c', 'command -v "$1"', 'sh', path], { encoding: 'utf8' }).status === 0;
    seen.set(path, ok);
  }
  return ok;
}

export function loud(message: string) {
  const bar = '!'.repeat(78);
  console.warn(`\n${bar}\n${message}\n${bar}\n`);
}

/**
 * True when `path` is installed. Otherwise: with CI=true it throws (the test file fails); outside CI
 * it prints a loud SKIPPED message and answers false, for `describe.skipIf(!ok)`.
 */
export function requireProgram(name: string, path: string, aptPackage: string, neededBy: string): boolean {
  if (programInstalled(path)) return true;
  const what = `${name} (${path}) is missing: apt-get install ${aptPackage}`;
  if (isCi()) throw new Error(`${what}; needed by ${neededBy}, which CI=true must not skip.`);
  loud(`SKIPPED: ${neededBy}. ${what}.`);
  return false;
}

/** `requireProgram` for several programs; false (after one loud message each) when any is missing. */
export function requirePrograms(programs: readonly Program[], neededBy: string): boolean {
  return programs.map((p) => requireProgram(p.name, p.path, p.apt, neededBy)).every(Boolean);
}
