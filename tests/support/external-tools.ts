import { spawnSync } from 'node:child_process';

// Debian programs some tests drive (pdfsig, pdfinfo, pdffonts from poppler-utils; certutil from
// libnss3-tools). `.ci/run` installs them. Missing outside CI: the tests that need them are skipped
// with a loud message. Missing in CI (CI=true): a failure, never a silent pass.

const found = new Map<string, boolean>();

function onPath(bin: string): boolean {
  let ok = found.get(bin);
  if (ok === undefined) {
    ok = spawnSync('sh', ['-c', `command -v ${bin}`], { encoding: 'utf8' }).status === 0;
    found.set(bin, ok);
  }
  return ok;
}

/** True when every program is installed; otherwise warns loudly (or throws when CI=true). */
export function haveTools(tools: { bin: string; apt: string }[], what: string): boolean {
  const missing = tools.filter((t) => !onPath(t.bin));
  if (missing.length === 0) return true;
  const list = missing.map((t) => `${t.bin} (apt-get install ${t.apt})`).join(', ');
  if (process.env.CI === 'true') throw new Error(`${what} needs ${list}, which CI must install (.ci/run)`);
  console.warn(`\n!!! SKIPPING ${what}: missing ${list} !!!\n`);
  return false;
}

export const POPPLER = [
  { bin: 'pdfsig', apt: 'poppler-utils' },
  { bin: 'pdfinfo', apt: 'poppler-utils' },
  { bin: 'pdffonts', apt: 'poppler-utils' },
];
export const NSS_TOOLS = [{ bin: 'certutil', apt: 'libnss3-tools' }];

/** Runs a program and answers its standard output (pdfsig exits 0 whatever it finds: read the text). */
export function run(bin: string, args: string[]): string {
  const r = spawnSync(bin, args, { encoding: 'utf8' });
  if (r.error) throw r.error;
  return `${r.stdout}${r.stderr}`;
}
