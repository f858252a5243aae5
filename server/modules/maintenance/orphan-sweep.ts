import { isNotNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { labSettings, reportRevisions, sampleFiles, users } from '../../db/schema';
import type { Storage } from '../../storage/storage';
import { PHOTO_COPY_FOLDERS, photoCopyKey } from '../photos/make-photo-copies';

// Every write stores its file first and commits its row after (docs/decisions/0008-hardening.md), and a failure removes
// the file again. A process killed between the two leaves a file without a row (or, on disk, a
// `*.tmp-*` file); this sweep removes them. Files younger than the grace period are left alone: on
// several instances another process may be between its file and its row right now.

export type SweepResult = { incomplete: string[]; orphans: string[]; missing: string[] };

type Log = { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };

/** The storage keys the database refers to, per folder. */
async function referencedKeys(db: Db): Promise<Set<string>> {
  const keys = new Set<string>();
  for (const f of await db
    .select({ name: sampleFiles.fileName, copies: sampleFiles.copiesState })
    .from(sampleFiles)) {
    keys.add(`uploads/${f.name}`);
    // A photo's display copies (docs/product/photos.md) live as long as its row.
    if (f.copies === 'ready') {
      keys.add(photoCopyKey(f.name, 'thumbnail'));
      keys.add(photoCopyKey(f.name, 'display'));
    }
  }
  for (const r of await db.select({ key: reportRevisions.storageKey }).from(reportRevisions)) keys.add(r.key);
  for (const u of await db
    .select({ profile: users.profileImageUrl })
    .from(users)
    .where(isNotNull(users.profileImageUrl)))
    if (u.profile) keys.add(u.profile.replace(/^\/?Uploads\//i, ''));
  for (const u of await db
    .select({ signature: users.signature })
    .from(users)
    .where(isNotNull(users.signature)))
    if (u.signature) keys.add(u.signature.replace(/^\/?Uploads\//i, ''));
  for (const l of await db
    .select({ logo: labSettings.logo })
    .from(labSettings)
    .where(isNotNull(labSettings.logo)))
    if (l.logo) keys.add(l.logo.replace(/^\/?Uploads\//i, ''));
  return keys;
}

const SWEPT_FOLDERS = ['uploads', 'reports', 'profile', 'signature', 'logo', ...PHOTO_COPY_FOLDERS];

export async function sweepOrphans(opts: {
  db: Db;
  storage: Storage;
  graceMs: number;
  log?: Log;
}): Promise<SweepResult> {
  const { db, storage, graceMs, log } = opts;
  const incomplete = await storage.sweepIncomplete(graceMs);
  const referenced = await referencedKeys(db);
  const cutoff = Date.now() - graceMs;
  const orphans: string[] = [];
  for (const folder of SWEPT_FOLDERS) {
    for (const key of await storage.list(folder)) {
      if (referenced.has(key)) continue;
      const at = await storage.modifiedAt(key);
      if (!at || at.getTime() > cutoff) continue;
      // Re-read after the age check: a row committed meanwhile keeps its file.
      if ((await referencedKeys(db)).has(key)) continue;
      await storage.delete(key);
      orphans.push(key);
    }
  }
  // Rows whose file is gone cannot be repaired here; they are reported loudly.
  const missing: string[] = [];
  for (const key of referenced) {
    if (!SWEPT_FOLDERS.some((f) => key.startsWith(`${f}/`))) continue;
    if (!(await storage.exists(key))) missing.push(key);
  }
  if (incomplete.length || orphans.length)
    log?.info(
      { incomplete: incomplete.length, orphans: orphans.length },
      'storage sweep removed unfinished files',
    );
  if (missing.length)
    log?.warn({ missing: missing.slice(0, 20), count: missing.length }, 'rows refer to missing files');
  return { incomplete, orphans, missing };
}

/** Runs the sweep at start and then every `everyMs`, never overlapping, never keeping the process alive. */
export function scheduleOrphanSweep(opts: {
  db: Db;
  storage: Storage;
  graceMs: number;
  everyMs: number;
  log: Log;
}): { first: Promise<SweepResult | null>; stop(): void } {
  let running: Promise<SweepResult | null> | null = null;
  const run = () => {
    if (running) return running;
    running = sweepOrphans(opts)
      .catch((err: Error) => {
        opts.log.warn({ err: err.name }, 'storage sweep failed; will retry');
        return null;
      })
      .finally(() => {
        running = null;
      });
    return running;
  };
  const first = run();
  const timer = setInterval(run, opts.everyMs);
  timer.unref();
  return { first, stop: () => clearInterval(timer) };
}
