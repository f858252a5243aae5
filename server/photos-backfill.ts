import { join } from 'node:path';
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { backfillPhotoCopies } from './modules/photos/backfill-photos';
import { countPhotosWithoutCopies } from './modules/photos/photos.queries';
import { createDiskStorage } from './storage/disk-storage';
import { createS3Storage } from './storage/s3-storage';

// `npm run photos:backfill`: display copies for photos uploaded before they existed. Uses the same
// configuration as the server. With the embedded database (no DATABASE_URL) stop the server first:
// only one process can open it.

const config = loadConfig();
const database = await openDatabase(config);
const storage = config.s3
  ? await createS3Storage(config.s3)
  : createDiskStorage(join(config.dataDir, 'files'));
const log = {
  info: (obj: object, msg: string) => console.log(msg, obj),
  warn: (obj: object, msg: string) => console.warn(msg, obj),
};
try {
  const before = await countPhotosWithoutCopies(database.db);
  const total = before.never + before.pending;
  console.log(`${total} photo(s) without display copies`);
  const counts = await backfillPhotoCopies({ db: database.db, storage, log }, (done, fileId, outcome) => {
    console.log(`  [${done}/${total}] photo ${fileId}: ${outcome}`);
  });
  console.log(
    `done: ${counts.made} made, ${counts.unreadable} unreadable (original kept, no copies), ${counts.error} failed (run again)`,
  );
  process.exitCode = counts.error > 0 ? 1 : 0;
} finally {
  await database.close();
}
