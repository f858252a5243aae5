import type { PhotoCopyDeps } from './make-photo-copies';
import { makeCopiesOfPhoto, type PhotoCopyOutcome } from './make-photo-copies';
import { countPhotosWithoutCopies, listPhotosWithoutCopies } from './photos.queries';

// Photos stored before display copies existed have none; `npm run photos:backfill` makes them, and
// start-up says how many are missing (docs/operations.md).

const PAGE = 100;

/** Makes the copies of every photo that lacks them, oldest first; answers what happened to each. */
export async function backfillPhotoCopies(
  deps: PhotoCopyDeps,
  onProgress?: (done: number, fileId: number, outcome: PhotoCopyOutcome | 'error') => void,
): Promise<Record<PhotoCopyOutcome | 'error', number>> {
  const counts: Record<PhotoCopyOutcome | 'error', number> = {
    made: 0,
    'already-done': 0,
    unreadable: 0,
    'not-a-photo': 0,
    error: 0,
  };
  let after = 0;
  let done = 0;
  for (;;) {
    const page = await listPhotosWithoutCopies(deps.db, after, PAGE);
    if (page.length === 0) break;
    for (const { id } of page) {
      after = id;
      let outcome: PhotoCopyOutcome | 'error';
      try {
        outcome = await makeCopiesOfPhoto(deps, id);
      } catch (err) {
        deps.log?.warn(
          { fileId: id, err: (err as Error).message },
          'photo copies failed; run the backfill again',
        );
        outcome = 'error';
      }
      counts[outcome] += 1;
      done += 1;
      onProgress?.(done, id, outcome);
    }
  }
  return counts;
}

type Log = { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };

/** Start-up: says when photos have no copies, and how to make them. Never fails the start. */
export async function reportMissingPhotoCopies(deps: Pick<PhotoCopyDeps, 'db'>, log: Log): Promise<void> {
  try {
    const { never, pending } = await countPhotosWithoutCopies(deps.db);
    if (never > 0)
      log.warn(
        { photos: never },
        `${never} photo(s) uploaded before display copies existed have none: run "npm run photos:backfill"`,
      );
    if (pending > 0) log.info({ photos: pending }, `${pending} photo(s) waiting for their display copies`);
  } catch (err) {
    log.warn({ err: (err as Error).message }, 'could not count photos without copies');
  }
}
