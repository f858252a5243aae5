import { spawnSync } from 'node:child_process';
import { requirePrograms } from './programs';

// Debian programs the signed-report tests drive (pdfsig, pdfinfo, pdffonts from poppler-utils;
// certutil from libnss3-tools), checked by the one rule of ./programs.ts. `.ci/run` installs them.

/** True when every program is installed; otherwise skips loudly (or fails when CI=true): ./programs.ts. */
export function haveTools(tools: { bin: string; apt: string }[], what: string): boolean {
  return requirePrograms(
    tools.map((t) => ({ name: t.bin, path: t.bin, apt: t.apt })),
    what,
  );
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
