import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { PASSWORD_TOO_GUESSABLE } from '../../../common/contracts/accounts';
import { DEFAULT_LAB_NAME } from '../../../common/domain/reports';
import type { DbOrTx } from '../../db/client';
import { badRequest } from '../../plugins/errors';
import { readLabSettings } from '../../db/lab-settings';
import { personalWords } from './password-words';

export { personalWords } from './password-words';

// New passwords are scored (./password-score.ts) in a worker thread (./password-strength-worker.ts):
// patterned input costs zxcvbn tens of milliseconds, which must not hold the event loop.

/**
 * Starts the worker: the bundled file beside the server (dist/server), else (tests, development) the
 * TypeScript source, loaded through tsx's loader registered inside the worker.
 */
function startWorker(): Worker {
  const here = dirname(fileURLToPath(import.meta.url));
  const bundled = join(here, 'password-strength-worker.js');
  if (existsSync(bundled)) return new Worker(bundled);
  const tsxRoot = dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
  const tsxApi = pathToFileURL(join(tsxRoot, 'dist', 'esm', 'api', 'index.mjs')).href;
  const source = pathToFileURL(join(here, 'password-strength-worker.ts')).href;
  return new Worker(
    `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); });`,
    { eval: true },
  );
}

type Pending = { resolve(guessable: boolean): void; reject(err: Error): void };
let worker: Worker | undefined;
const pending = new Map<number, Pending>();
let nextId = 1;

/**
 * One worker thread per process, started on first use. It keeps the process alive only while a
 * password is being scored: an answer awaited at start (the admin's password) must not be cut short
 * by a process with nothing else to wait on, and an idle worker must not hold one open.
 */
function strengthWorker(): Worker {
  if (worker) return worker;
  const w = startWorker();
  w.unref();
  const fail = (err: Error) => {
    if (worker === w) worker = undefined;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  w.on('message', (answer: { id: number; guessable?: boolean; error?: string }) => {
    const p = pending.get(answer.id);
    if (!p) return;
    pending.delete(answer.id);
    if (pending.size === 0) w.unref();
    if (answer.error !== undefined) p.reject(new Error(answer.error));
    else p.resolve(answer.guessable === true);
  });
  w.on('error', fail);
  w.on('exit', (code) => fail(new Error(`password strength worker exited (${code})`)));
  worker = w;
  return w;
}

/**
 * Starts the worker thread now, so that loading its word lists overlaps the rest of a start that
 * will score a password (ADMIN_PASSWORD) instead of being waited for then. It does not keep the
 * process alive.
 */
export function warmPasswordStrengthWorker(): void {
  strengthWorker();
}

/** isGuessablePassword, scored in the worker thread so the event loop stays free. */
export function isGuessablePasswordOffLoop(password: string, words: string[]): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    const w = strengthWorker();
    if (pending.size === 0) w.ref();
    pending.set(id, { resolve, reject });
    w.postMessage({ id, password, words });
  });
}

/** The lab's current name (settings, else the default), one of the words a password must avoid. */
export async function labNameFor(db: DbOrTx): Promise<string> {
  return (await readLabSettings(db))?.labName?.trim() || DEFAULT_LAB_NAME;
}

/** 400 with the message beside `field` when the new password is too easy to guess. */
export async function refuseGuessablePassword(
  db: DbOrTx,
  password: string,
  person: { email?: string | null; firstName?: string | null; lastName?: string | null },
  field: string,
): Promise<void> {
  if (await isGuessablePasswordOffLoop(password, personalWords(person, await labNameFor(db))))
    throw badRequest(PASSWORD_TOO_GUESSABLE, [{ path: field, message: PASSWORD_TOO_GUESSABLE }]);
}
