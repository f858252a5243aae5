import type { PhotoCopyVariant } from '../../../common/domain/photos';
import type { Db } from '../../db/client';
import type { Storage } from '../../storage/storage';
import { UnreadablePhotoError } from './photo-errors';
import { type PhotoCopier, PhotoCopyLimitError, sharedPhotoCopier } from './photo-copier';
import { findPhotoFile, setCopiesState } from './photos.queries';

// The background work behind a photo's copies: read the original, make both copies, store them,
// then mark the row ready. Safe to run twice or after a crash at any point: the copies are written
// under fixed keys (a second run overwrites them with the same pictures) and the row says 'ready'
// only after both are stored.

type Log = { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };

export type PhotoCopyDeps = {
  db: Db;
  storage: Storage;
  log?: Log;
  /** Decodes in a child process with time and memory limits; default: one with the default limits. */
  copier?: PhotoCopier;
};

const COPY_FOLDERS: Record<PhotoCopyVariant, string> = { thumbnail: 'thumbnails', display: 'display' };

/** Storage key of a copy: the original's random name with `.jpg`, in the variant's folder. */
export const photoCopyKey = (originalFileName: string, variant: PhotoCopyVariant) =>
  `${COPY_FOLDERS[variant]}/${originalFileName.replace(/\.[^.]*$/, '')}.jpg`;

export const PHOTO_COPY_FOLDERS = Object.values(COPY_FOLDERS);

// Decoding a 12 MP HEIC holds ~300 MB (in the copy process): one photo at a time keeps memory bounded.
let queue: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const run = queue.then(work, work);
  queue = run.catch(() => undefined);
  return run;
}

export type PhotoCopyOutcome = 'made' | 'already-done' | 'unreadable' | 'not-a-photo';

/**
 * Makes the copies of one stored photo. Resolves 'unreadable' (and marks the row failed) for a file
 * no decoder can read, or whose decoding passed the time or memory limit or crashed the decoder;
 * throws on anything worth retrying (storage or database unavailable, the server stopping).
 */
export function makeCopiesOfPhoto(deps: PhotoCopyDeps, fileId: number): Promise<PhotoCopyOutcome> {
  return oneAtATime(async () => {
    const photo = await findPhotoFile(deps.db, fileId);
    if (!photo || photo.fileCategory !== 'photo') return 'not-a-photo';
    if (photo.copiesState === 'ready' || photo.copiesState === 'failed') return 'already-done';
    const original = await deps.storage.read(`uploads/${photo.fileName}`);
    let copies: Awaited<ReturnType<PhotoCopier['make']>>;
    try {
      copies = await (deps.copier ?? sharedPhotoCopier()).make(original, photo.fileType);
    } catch (err) {
      if (!(err instanceof UnreadablePhotoError || err instanceof PhotoCopyLimitError)) throw err;
      deps.log?.warn({ fileId, reason: err.message }, 'photo cannot be decoded; no copies made');
      await setCopiesState(deps.db, fileId, 'failed');
      return 'unreadable';
    }
    await deps.storage.put(photoCopyKey(photo.fileName, 'thumbnail'), copies.thumbnail);
    await deps.storage.put(photoCopyKey(photo.fileName, 'display'), copies.display);
    await setCopiesState(deps.db, fileId, 'ready');
    return 'made';
  });
}

/**
 * The display copy of a photo for a document (the report PDF): never the original, which may carry
 * a GPS position. Makes the copies first when they are still missing; null when the photo cannot be
 * shown (unknown, not a photo, undecodable). A caller that has already read the photo's row passes
 * it: copies known to be ready are read at once, without queueing behind copy-making or asking the
 * database again (six photos took a dozen queries, one after another, per report issued).
 */
export async function displayCopyForDocument(
  deps: PhotoCopyDeps,
  fileId: number,
  known?: { fileName: string; copiesState: string | null },
): Promise<Buffer | null> {
  if (known?.copiesState === 'ready') {
    const copy = await deps.storage.read(photoCopyKey(known.fileName, 'display')).catch(() => null);
    if (copy) return copy;
  }
  const outcome = await makeCopiesOfPhoto(deps, fileId);
  if (outcome === 'not-a-photo' || outcome === 'unreadable') return null;
  const photo = await findPhotoFile(deps.db, fileId);
  if (!photo || photo.copiesState !== 'ready') return null;
  return deps.storage.read(photoCopyKey(photo.fileName, 'display'));
}
