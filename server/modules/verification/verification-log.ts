import type { Db } from '../../db/client';
import { networkPrefix } from '../../plugins/client-address';
import { insertVerificationLog, type VerificationLogEntry } from './verification.queries';

// Every public verification is logged with its time, code and result, and only a coarse network
// prefix, never the visitor's address (docs/product/reports-and-verification.md). Entries are written in batches so the lookup
// itself does not wait for an insert; the app flushes what is left when it closes.

const FLUSH_DELAY_MS = 200;
const MAX_BATCH = 500;
const MAX_CODE_LENGTH = 64;
const PLAIN_CODE = /^[\x20-\x7e]{0,64}$/;

export { networkPrefix };

/**
 * The code as the log can store it: at most 64 characters, without NUL or lone surrogates (the
 * routes refuse such codes with 400 already; this keeps one odd entry from failing a whole batch).
 */
export function storableCode(code: string): string {
  // The usual case, a code as typed (printable ASCII), needs no cleaning.
  if (PLAIN_CODE.test(code)) return code;
  return code
    .replaceAll('\u0000', '')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
    .slice(0, MAX_CODE_LENGTH);
}

export type VerificationLogger = {
  record(entry: { code: string; result: string; ip: string | undefined; shareLinkId?: number | null }): void;
  flush(): Promise<void>;
};

export function createVerificationLogger(db: Db, onError: (err: unknown) => void): VerificationLogger {
  let queue: VerificationLogEntry[] = [];
  let timer: NodeJS.Timeout | null = null;
  let writing: Promise<void> = Promise.resolve();

  const flush = async () => {
    if (timer) clearTimeout(timer);
    timer = null;
    const batch = queue;
    queue = [];
    writing = writing.then(async () => {
      try {
        await insertVerificationLog(db, batch);
      } catch (err) {
        // One entry the database refuses must not cost the others their place in the log.
        onError(err);
        for (const entry of batch) await insertVerificationLog(db, [entry]).catch(onError);
      }
    });
    await writing;
  };

  return {
    record({ code, result, ip, shareLinkId }) {
      queue.push({
        at: new Date(),
        code: storableCode(code),
        result,
        network: networkPrefix(ip),
        shareLinkId: shareLinkId ?? null,
      });
      if (queue.length >= MAX_BATCH) void flush();
      else if (!timer) {
        timer = setTimeout(() => void flush(), FLUSH_DELAY_MS);
        timer.unref();
      }
    },
    flush,
  };
}
