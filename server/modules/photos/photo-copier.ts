import { type ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { setPriority } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { PhotoCopies } from './photo-copies';
import { UnreadablePhotoError } from './photo-errors';
import type { CopyAnswer, CopyRequest } from './photo-copy-process';

// Runs the photo decoders in a child process (./photo-copy-process.ts) with a time and a memory
// limit, one photo at a time (docs/product/photos.md, docs/decisions/0019-images-off-the-event-loop.md).
// A child process rather than a worker thread: the decoders are native code (libvips) and
// WebAssembly (libheif), whose memory a worker's resourceLimits do not count and which a crash would
// take the whole server down with; a process is measured by its resident memory and killed alone.
// The child is started on first use, ended after it sat idle or when a HEIC decode left its
// WebAssembly memory grown (it never shrinks; an exit gives it back), and started again when needed.

export type PhotoCopierLimits = {
  /** A photo whose copies take longer is given up: the child is killed. */
  timeoutMs: number;
  /** The child's resident memory may not pass this while it works (Linux: /proc; elsewhere unchecked). */
  memoryBytes: number;
};

export const DEFAULT_PHOTO_COPIER_LIMITS: PhotoCopierLimits = {
  timeoutMs: 120_000,
  memoryBytes: 1536 * 1024 * 1024,
};

/** The copies of this photo were given up: it took too long, too much memory, or crashed the decoder. */
export class PhotoCopyLimitError extends Error {
  override name = 'PhotoCopyLimitError';
  constructor(
    readonly reason: 'time' | 'memory' | 'crashed',
    message: string,
  ) {
    super(message);
  }
}

/** The copier was closed (the server stops) while a photo was being copied: worth retrying later. */
export class PhotoCopierClosedError extends Error {
  override name = 'PhotoCopierClosedError';
}

export type PhotoCopier = {
  /** The copies of one original; rejects with UnreadablePhotoError or PhotoCopyLimitError. */
  make(original: Buffer, mime: string): Promise<PhotoCopies>;
  /** The highest resident memory the child reached during the last photo (bytes; 0 if unmeasured). */
  lastPeakRssBytes(): number;
  close(): Promise<void>;
};

const WATCH_MS = 100;
/** After a photo, a child holding more than this is ended rather than kept for the next photo. */
const RECYCLE_RSS_BYTES = 256 * 1024 * 1024;
const IDLE_MS = 10_000;
/** The copy process's nice value (0 normal, 19 lowest): below the server's requests. */
const CHILD_NICENESS = 10;
/** The child's JavaScript heap; decoded pixels live outside it (native and WebAssembly memory). */
const CHILD_HEAP_MB = 256;

/** The child's entry: beside the server bundle (dist/server), else the TypeScript source run through tsx. */
function childEntry(): { file: string; execArgv: string[] } {
  const here = dirname(fileURLToPath(import.meta.url));
  const heap = `--max-old-space-size=${CHILD_HEAP_MB}`;
  const bundled = join(here, 'photo-copy-process.js');
  if (existsSync(bundled)) return { file: bundled, execArgv: [heap] };
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { file: join(here, 'photo-copy-process.ts'), execArgv: [heap, '--import', tsx] };
}

/** Resident memory of a process in bytes, from /proc (Linux); null where that cannot be read. */
async function residentBytes(pid: number): Promise<number | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'latin1');
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
    return kb ? Number(kb) * 1024 : null;
  } catch {
    return null;
  }
}

const toBuffer = (u: Uint8Array) => Buffer.from(u.buffer, u.byteOffset, u.byteLength);

export function createPhotoCopier(
  limits: PhotoCopierLimits = DEFAULT_PHOTO_COPIER_LIMITS,
  log?: { warn(obj: object, msg: string): void },
): PhotoCopier {
  let child: ChildProcess | null = null;
  let idle: NodeJS.Timeout | null = null;
  let nextId = 1;
  let chain: Promise<unknown> = Promise.resolve();
  let closed = false;
  let peak = 0;
  /** The photo in progress and the child working on it. */
  let current: { child: ChildProcess; fail(err: Error): void } | null = null;

  function start(): ChildProcess {
    const { file, execArgv } = childEntry();
    const c = fork(file, [], {
      execArgv,
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    // Decoding is background work: the child yields the CPU to the server's own requests (on two
    // cores, a 49 MP decode at normal priority delayed health answers by 200 ms; bench/image-stall).
    if (c.pid !== undefined) {
      try {
        setPriority(c.pid, CHILD_NICENESS);
      } catch {
        // Not permitted here: it still runs, at normal priority.
      }
    }
    const failCurrent = (err: Error) => {
      if (current?.child === c) current.fail(err);
    };
    c.on('error', (err) => failCurrent(new PhotoCopyLimitError('crashed', `copy process: ${err.message}`)));
    c.on('exit', (code, signal) => {
      if (child === c) child = null;
      failCurrent(
        new PhotoCopyLimitError('crashed', `copy process ended (${signal ?? `exit code ${code}`})`),
      );
    });
    return c;
  }

  function end(c: ChildProcess | null, hard = false) {
    if (!c) return;
    if (child === c) child = null;
    if (hard || !c.connected) c.kill('SIGKILL');
    else c.disconnect();
  }

  function release(c: ChildProcess) {
    c.unref();
    (c.channel as { unref?: () => void } | undefined)?.unref?.();
    idle = setTimeout(() => end(c), IDLE_MS);
    idle.unref();
  }

  function run(original: Buffer, mime: string): Promise<PhotoCopies> {
    if (closed) return Promise.reject(new PhotoCopierClosedError('photo copier closed'));
    if (idle) clearTimeout(idle);
    idle = null;
    const c = child ?? start();
    child = c;
    c.ref();
    (c.channel as { ref?: () => void } | undefined)?.ref?.();
    const id = nextId++;
    peak = 0;
    return new Promise<PhotoCopies>((resolve, reject) => {
      let settled = false;
      const finish = (err: Error | null, copies?: PhotoCopies) => {
        if (settled) return;
        settled = true;
        current = null;
        clearTimeout(timer);
        clearInterval(watch);
        c.off('message', onMessage);
        if (err) {
          if (err instanceof PhotoCopyLimitError || err instanceof PhotoCopierClosedError) end(c, true);
          else release(c);
          reject(err);
          return;
        }
        // Decided before the answer leaves, so the next photo never meets a child being ended.
        void residentBytes(c.pid ?? -1).then((rss) => {
          if (rss !== null && rss > RECYCLE_RSS_BYTES) end(c);
          else if (child === c) release(c);
          resolve(copies as PhotoCopies);
        });
      };
      current = { child: c, fail: (err) => finish(err) };
      const onMessage = (answer: CopyAnswer) => {
        if (answer.id !== id) return;
        if (answer.ok)
          finish(null, {
            thumbnail: toBuffer(answer.thumbnail),
            display: toBuffer(answer.display),
            width: answer.width,
            height: answer.height,
          });
        else finish(answer.unreadable ? new UnreadablePhotoError(answer.message) : new Error(answer.message));
      };
      c.on('message', onMessage);
      const timer = setTimeout(
        () => finish(new PhotoCopyLimitError('time', `photo copies took longer than ${limits.timeoutMs} ms`)),
        limits.timeoutMs,
      );
      const watch = setInterval(() => {
        void residentBytes(c.pid ?? -1).then((rss) => {
          if (rss === null || settled) return;
          peak = Math.max(peak, rss);
          if (rss > limits.memoryBytes)
            finish(
              new PhotoCopyLimitError(
                'memory',
                `photo copies needed more than ${Math.round(limits.memoryBytes / 1024 / 1024)} MB`,
              ),
            );
        });
      }, WATCH_MS);
      const request: CopyRequest = { id, original, mime };
      c.send(request, (err) => {
        if (err) finish(new PhotoCopyLimitError('crashed', `copy process unreachable: ${err.message}`));
      });
    });
  }

  return {
    make(original, mime) {
      const next = chain.then(
        () => run(original, mime),
        () => run(original, mime),
      );
      chain = next.catch(() => undefined);
      return next.catch((err: Error) => {
        if (err instanceof PhotoCopyLimitError) log?.warn({ reason: err.reason }, err.message);
        throw err;
      });
    },
    lastPeakRssBytes: () => peak,
    async close() {
      closed = true;
      if (idle) clearTimeout(idle);
      current?.fail(new PhotoCopierClosedError('photo copier closed'));
      const c = child;
      child = null;
      if (c && c.exitCode === null && c.signalCode === null) {
        const exited = new Promise((r) => c.once('exit', r));
        c.kill('SIGKILL');
        await exited;
      }
    },
  };
}

let shared: PhotoCopier | undefined;

/** One copier with the default limits for scripts (seed, backfill, benchmarks) that bring none. */
export function sharedPhotoCopier(): PhotoCopier {
  shared ??= createPhotoCopier();
  return shared;
}
