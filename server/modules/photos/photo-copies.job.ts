import { exponentialBackoff, type JobWorker } from '../../jobs/jobs';
import { makeCopiesOfPhoto, type PhotoCopyDeps } from './make-photo-copies';

// Copies are made off the request path, on the durable job queue: the submission stores one job per
// photo in the same statement as the photo's row, so a crash never loses one (docs/product/photos.md).

export const PHOTO_COPIES_QUEUE = 'photo-copies';
export type PhotoCopiesPayload = { fileId: number };
/** A photo's copy job takes turns by the customer who submitted it: its fair key is this + their id. */
export const PHOTO_COPIES_FAIR_KEY_PREFIX = 'user:';

/**
 * A run that dies with its process is taken over once this lease runs out; the worker renews it
 * every third while a long HEIC is decoded, so only a dead instance loses the job.
 */
const LEASE_MS = 15_000;

export function registerPhotoCopiesJob(jobs: JobWorker, deps: PhotoCopyDeps): void {
  jobs.registerJobHandler<PhotoCopiesPayload>(
    PHOTO_COPIES_QUEUE,
    async ({ fileId }) => {
      // An undecodable file resolves (the row says 'failed'); storage or database trouble throws and is retried.
      await makeCopiesOfPhoto(deps, fileId);
    },
    // Fair: customers take turns (each job's fairKey is its customer), so one customer's batch of
    // photos never keeps another customer's first photo waiting behind it.
    { leaseMs: LEASE_MS, backoff: exponentialBackoff(5_000), concurrency: 1, fair: true },
  );
}
