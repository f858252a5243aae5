import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export type ReceivedMail = {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  /** Header values as sent, by lower-case name (the first of each). */
  headers: Map<string, string>;
  /** Every absolute link of the text body. */
  links: string[];
  raw: ParsedMail;
};

export type TestSmtp = {
  url: string;
  port: number;
  mails: ReceivedMail[];
  /** While down, every message is refused with a temporary 451 error. */
  setDown(down: boolean): void;
  /** Waits until `count` mails matched (default 1) and answers them. */
  waitFor(
    match: (m: ReceivedMail) => boolean,
    opts?: { count?: number; timeoutMs?: number },
  ): Promise<ReceivedMail[]>;
  to(address: string): ReceivedMail[];
  close(): Promise<void>;
};

const addresses = (v: ParsedMail['to']): string[] =>
  (Array.isArray(v) ? v : v ? [v] : []).flatMap((a) => a.value.map((x) => (x.address ?? '').toLowerCase()));

/** A real SMTP server in this process on a free loopback port; the product delivers to it. */
export async function startTestSmtp(): Promise<TestSmtp> {
  const mails: ReceivedMail[] = [];
  let down = false;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      if (down) {
        stream.resume();
        stream.on('end', () => {
          const err = new Error('Mail server temporarily unavailable') as Error & { responseCode: number };
          err.responseCode = 451;
          callback(err);
        });
        return;
      }
      simpleParser(stream)
        .then((parsed) => {
          const text = parsed.text ?? '';
          mails.push({
            to: addresses(parsed.to),
            from: parsed.from?.text ?? '',
            subject: parsed.subject ?? '',
            text,
            html: typeof parsed.html === 'string' ? parsed.html : '',
            headers: new Map(
              [...parsed.headerLines]
                .reverse()
                .map((h) => [h.key, h.line.slice(h.line.indexOf(':') + 1).trim()]),
            ),
            links: [...text.matchAll(/https?:\/\/[^\s<>"')]+/g)].map((m) => m[0]),
            raw: parsed,
          });
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  // A client that dies mid-conversation (the resilience tests SIGKILL the product while it delivers)
  // resets its connection: expected there, and without a listener the server's 'error' event would
  // be an uncaught exception in the test process. Anything else is still shown.
  server.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'ECONNRESET' && err.code !== 'EPIPE') console.error('test SMTP server:', err);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    mails,
    setDown(v) {
      down = v;
    },
    async waitFor(match, opts = {}) {
      const count = opts.count ?? 1;
      const end = Date.now() + (opts.timeoutMs ?? 15_000);
      for (;;) {
        const found = mails.filter(match);
        if (found.length >= count) return found;
        if (Date.now() > end)
          throw new Error(
            `expected ${count} mail(s), got ${found.length}; received: ${mails.map((m) => `${m.to.join(',')} "${m.subject}"`).join('; ') || 'none'}`,
          );
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    to(address) {
      return mails.filter((m) => m.to.includes(address.toLowerCase()));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
