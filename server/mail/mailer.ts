import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, eq, is, Placeholder, sql, type SQL } from 'drizzle-orm';
import type { Transporter } from 'nodemailer';
import { DEFAULT_LAB_NAME } from '../../common/domain/reports';
import type { Config } from '../config';
import type { Db, DbOrTx } from '../db/client';
import { jobs, mailOutbox } from '../db/schema';
import { DEFAULT_MAX_ATTEMPTS, enqueueJob, type JobWorker, retryJob } from '../jobs/jobs';
import { type LabSettingsRow, readLabSettings } from '../db/lab-settings';
import type { Storage } from '../storage/storage';
import { createLiveTokenVault, type LiveTokenVault } from './live-tokens';
import { type Brand, type MailData, type MailKind, type RenderedMail, templates } from './templates';

// The outbox: every mail is rendered and stored in the transaction of the event that causes it,
// together with a 'mail.send' job that delivers it (docs/product/mail.md). The stored copy never holds
// a live link token: they are sealed beside it and put back only into the message sent (live-tokens.ts).

export const MAIL_QUEUE = 'mail.send';

export type OutboxRow = typeof mailOutbox.$inferSelect;
export type NewOutboxRow = typeof mailOutbox.$inferInsert;

export type Mailer = {
  readonly smtpConfigured: boolean;
  /** An absolute link on PUBLIC_URL. */
  url(path: string): string;
  /** Renders a mail with the lab's current branding (read through `db`). */
  /** `lab`: the lab's settings when the caller has read them already (else they are read here). */
  render<K extends MailKind>(
    db: DbOrTx,
    to: string,
    kind: K,
    data: MailData<K>,
    lab?: LabSettingsRow | null,
  ): Promise<NewOutboxRow>;
  /** Stores a rendered mail and its delivery job; call it with the event's transaction. */
  insert(tx: DbOrTx, mail: NewOutboxRow): Promise<number>;
  /** render + insert, in the caller's transaction. */
  queue<K extends MailKind>(tx: DbOrTx, to: string, kind: K, data: MailData<K>): Promise<number>;
  /** The link that turns a user's status mails off, without signing in; unforgeable (HMAC). */
  unsubscribeUrl(userId: number): string;
  /** The user id of a valid unsubscribe token, else null. */
  readUnsubscribeToken(token: string): number | null;
  /** The From header. */
  from(db: DbOrTx): Promise<string>;
  /** Puts a failed or pending mail back in line for delivery now. */
  retry(db: DbOrTx, outboxId: number): Promise<boolean>;
  /** Seals and restores the live link tokens of stored mails. */
  readonly liveTokens: LiveTokenVault;
};

/**
 * One statement's worth of SQL that stores a rendered mail and its delivery job, for callers that
 * write their event as a single statement (data-modifying CTEs): `with …, ${outboxCte(mail)} select …`.
 */
export function outboxCte(mail: NewOutboxRow): SQL {
  // A statement built once with placeholders (the submission's) passes the headers' JSON text as one.
  const headers = is(mail.headers, Placeholder) ? mail.headers : JSON.stringify(mail.headers ?? {});
  return sql`mail_o as (
      insert into ${mailOutbox} (kind, to_address, subject, html, text, headers, logo_key, sealed_tokens)
      values (${mail.kind}, ${mail.toAddress}, ${mail.subject}, ${mail.html}, ${mail.text}, ${headers}::jsonb, ${mail.logoKey ?? null}, ${mail.sealedTokens ?? null})
      returning id
    ),
    mail_j as (
      insert into ${jobs} (queue, payload, max_attempts, dedupe_key)
      select ${MAIL_QUEUE}, jsonb_build_object('outboxId', mail_o.id), ${DEFAULT_MAX_ATTEMPTS}, 'outbox:' || mail_o.id
      from mail_o
    )`;
}

export function createMailer(opts: { config: Config; secret: string }): Mailer {
  const { config } = opts;
  const unsubscribeKey = createHmac('sha256', opts.secret).update('mail-unsubscribe-v1').digest();
  const sign = (userId: number) =>
    createHmac('sha256', unsubscribeKey).update(`status:${userId}`).digest('base64url').slice(0, 32);
  const url = (path: string) => `${config.publicUrl}${path.startsWith('/') ? '' : '/'}${path}`;
  const liveTokens = createLiveTokenVault(opts.secret);

  async function brand(db: DbOrTx, known?: LabSettingsRow | null): Promise<Brand> {
    const lab = known === undefined ? await readLabSettings(db) : known;
    return {
      labName: lab?.labName?.trim() || DEFAULT_LAB_NAME,
      logoKey: lab?.logo ?? null,
      publicUrl: config.publicUrl,
      labEmail: lab?.email ?? null,
      labAddress: lab?.address ?? null,
    };
  }

  const mailer: Mailer = {
    smtpConfigured: Boolean(config.smtpUrl),
    liveTokens,
    url,
    async render(db, to, kind, data, lab) {
      const b = await brand(db, lab);
      const render = templates[kind] as (b: Brand, d: MailData<typeof kind>) => RenderedMail;
      const m = render(b, data);
      const headers: Record<string, string> = m.unsubscribeUrl
        ? {
            'List-Unsubscribe': `<${oneClickUrl(m.unsubscribeUrl)}>`,
            'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
          }
        : {};
      // What is stored shows each link token as a marker; the tokens themselves are sealed.
      const { mail, sealed } = liveTokens.redact(to, { html: m.html, text: m.text, headers });
      return {
        kind,
        toAddress: to,
        subject: m.subject.slice(0, 500),
        html: mail.html,
        text: mail.text,
        headers: mail.headers,
        logoKey: b.logoKey,
        sealedTokens: sealed,
      };
    },
    async insert(tx, mail) {
      const [row] = await tx.insert(mailOutbox).values(mail).returning({ id: mailOutbox.id });
      if (!row) throw new Error('mail not stored');
      await enqueueJob(tx, {
        queue: MAIL_QUEUE,
        payload: { outboxId: row.id },
        dedupeKey: `outbox:${row.id}`,
      });
      return row.id;
    },
    async queue(tx, to, kind, data) {
      return mailer.insert(tx, await mailer.render(tx, to, kind, data));
    },
    unsubscribeUrl(userId) {
      return url(`/unsubscribe?token=${userId}.${sign(userId)}`);
    },
    readUnsubscribeToken(token) {
      const m = /^(\d{1,10})\.([A-Za-z0-9_-]{32})$/.exec(token);
      if (!m) return null;
      const userId = Number(m[1]);
      const expected = Buffer.from(sign(userId));
      const given = Buffer.from(m[2] ?? '');
      return given.length === expected.length && timingSafeEqual(given, expected) ? userId : null;
    },
    async from(db) {
      if (config.mailFrom) return config.mailFrom;
      const b = await brand(db);
      const host = new URL(config.publicUrl).hostname;
      return `"${b.labName.replace(/["\\\r\n]/g, '')}" <no-reply@${host}>`;
    },
    async retry(db, outboxId) {
      const [row] = await db
        .update(mailOutbox)
        .set({ state: 'pending', lastError: null })
        .where(and(eq(mailOutbox.id, outboxId), sql`${mailOutbox.state} <> 'sent'`))
        .returning({ id: mailOutbox.id });
      if (!row) return false;
      const [job] = await db
        .select({ id: jobs.id })
        .from(jobs)
        .where(and(eq(jobs.queue, MAIL_QUEUE), eq(jobs.dedupeKey, `outbox:${outboxId}`)));
      if (job) await retryJob(db, job.id);
      else
        await enqueueJob(db, { queue: MAIL_QUEUE, payload: { outboxId }, dedupeKey: `outbox:${outboxId}` });
      return true;
    },
  };
  // RFC 8058: the one-click POST goes to the API; the body link goes to the web page.
  const oneClickUrl = (pageUrl: string) => pageUrl.replace('/unsubscribe?', '/api/mail/unsubscribe?');
  return mailer;
}

/**
 * Delivers outbox mails with nodemailer to SMTP_URL. Registered only when SMTP_URL is set: without
 * it the 'mail.send' jobs wait, and the mails stay readable in the admin Outbox.
 */
export function registerMailDelivery(opts: {
  worker: JobWorker;
  db: Db;
  config: Config;
  storage: Storage;
  mailer: Mailer;
}) {
  const { config, db, storage, mailer } = opts;
  if (!config.smtpUrl) return;
  const url = new URL(config.smtpUrl);
  url.searchParams.set('connectionTimeout', '15000');
  url.searchParams.set('greetingTimeout', '15000');
  url.searchParams.set('socketTimeout', '30000');
  // nodemailer is loaded with the first mail to send, not when the server starts.
  let transport: Promise<Transporter> | undefined;
  const smtp = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport(url.toString()),
    ));
  opts.worker.registerJobHandler<{ outboxId: number }>(
    MAIL_QUEUE,
    async ({ outboxId }, ctx) => {
      const [mail] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, outboxId));
      // Sent already (a second run after a crash between sending and recording): nothing to do.
      if (!mail || mail.state === 'sent') return;
      const logo = mail.logoKey ? await storage.read(mail.logoKey).catch(() => null) : null;
      try {
        // The live tokens go back into this message only; the stored row keeps its markers.
        const stored = { html: mail.html, text: mail.text, headers: mail.headers };
        const live = mail.sealedTokens
          ? mailer.liveTokens.restore(mail.toAddress, stored, mail.sealedTokens)
          : stored;
        await (
          await smtp()
        ).sendMail({
          from: await mailer.from(db),
          to: mail.toAddress,
          subject: mail.subject,
          html: live.html,
          text: live.text,
          headers: live.headers,
          messageId: `<outbox-${mail.id}-${mail.createdAt.getTime()}@${new URL(config.publicUrl).hostname}>`,
          attachments: logo ? [{ filename: 'logo', content: logo, cid: 'lab-logo' }] : [],
        });
        await db
          .update(mailOutbox)
          .set({
            state: 'sent',
            sentAt: new Date(),
            // Sent: nobody needs the live tokens any more, not even sealed.
            sealedTokens: null,
            attempts: sql`${mailOutbox.attempts} + 1`,
            lastError: null,
          })
          .where(eq(mailOutbox.id, outboxId));
      } catch (err) {
        await db
          .update(mailOutbox)
          .set({
            state: ctx.isFinalAttempt ? 'failed' : 'pending',
            attempts: sql`${mailOutbox.attempts} + 1`,
            lastError: (err as Error).message.slice(0, 2000),
          })
          .where(eq(mailOutbox.id, outboxId));
        throw err;
      }
    },
    // The lease is the worker's (JOBS_LEASE_SECONDS), renewed while a slow SMTP server is waited on.
    { concurrency: 2 },
  );
}
