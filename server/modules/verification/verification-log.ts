import { isIPv4, isIPv6 } from 'node:net';
import type { Db } from '../../db/client';
import { insertVerificationLog, type VerificationLogEntry } from './verification.queries';

// Every public verification is logged with its time, code and result, and only a coarse network
// prefix, never the visitor's address (CONTRACT §3). Entries are written in batches so the lookup
// itself does not wait for an insert; the app flushes what is left when it closes.

const FLUSH_DELAY_MS = 200;
const MAX_BATCH = 500;
const MAX_CODE_LENGTH = 64;

/** 203.0.113.77 → 203.0.113.0/24; 2001:db8:1:2::5 → 2001:db8:1::/48. */
export function networkPrefix(ip: string | undefined): string | null {
  if (!ip) return null;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  const v4 = mapped?.[1] ?? ip;
  if (isIPv4(v4)) return `${v4.split('.').slice(0, 3).join('.')}.0/24`;
  if (!isIPv6(ip)) return null;
  const [head = '', tail = ''] = ip.split('::');
  const headParts = head ? head.split(':') : [];
  const tailParts = tail ? tail.split(':') : [];
  const groups = [
    ...headParts,
    ...Array(Math.max(0, 8 - headParts.length - tailParts.length)).fill('0'),
    ...tailParts,
  ];
  return `${groups
    .slice(0, 3)
    .map((g) => Number.parseInt(g || '0', 16).toString(16))
    .join(':')}::/48`;
}

export type VerificationLogger = {
  record(entry: { code: string; result: string; ip: string | undefined }): void;
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
        onError(err);
      }
    });
    await writing;
  };

  return {
    record({ code, result, ip }) {
      queue.push({
        at: new Date(),
        code: code.slice(0, MAX_CODE_LENGTH),
        result,
        network: networkPrefix(ip),
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
