import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_STATUS_LABELS } from '../../common/domain/samples';
import { submitSample } from '../support/factories';
import { callOk } from '../support/http';
import { type PostgresCluster, startPostgresCluster } from '../support/postgres';
import { E2E_ADMIN, type Product, startProduct } from '../support/product';
import { PROGRAMS, requireProgram } from '../support/programs';
import { startTestSmtp, type TestSmtp } from '../support/smtp';
import { START_TIMEOUT, createDatabase, login, registerAndLogin } from './helpers';

// Mails survive a SIGKILL and are never sent twice (docs/product/mail.md, docs/decisions/0009):
// mails queued by committed changes are delivered exactly once after the server is killed and
// started again, and two server processes on one PostgreSQL deliver each mail exactly once.

const { name, path, apt } = PROGRAMS.postgres;
const hasPostgres = requireProgram(name, path, apt, 'the mail delivery tests on PostgreSQL');

const STATUSES = ['in-progress', 'analysis', 'review'] as const;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let cluster: PostgresCluster;
let smtp: TestSmtp;
beforeAll(async () => {
  smtp = await startTestSmtp();
  if (hasPostgres) cluster = await startPostgresCluster();
});
afterAll(async () => {
  await smtp?.close();
  cluster?.stop();
});

type Expected = { to: string; subject: string | RegExp };

/** Queues mails through the product: a welcome, a receipt per sample, a status mail per change. */
async function queueMails(products: readonly Product[], prefix: string): Promise<Expected[]> {
  const first = products[0] as Product;
  const customer = await registerAndLogin(first.url, prefix);
  const admin = await login(first.url, E2E_ADMIN.email, E2E_ADMIN.password);
  const expected: Expected[] = [{ to: customer.email, subject: /^Welcome to / }];
  const samples: number[] = [];
  for (let i = 0; i < 3; i++) {
    const id = await submitSample(products[i % products.length] as Product, customer.token);
    samples.push(id);
    expected.push({ to: customer.email, subject: new RegExp(`^We received your sample VAL-0*${id}:`) });
  }
  let n = 0;
  for (const id of samples) {
    for (const status of STATUSES) {
      const at = products[n++ % products.length] as Product;
      await callOk(at, 'POST', `/api/staff/samples/${id}/status`, {
        token: admin,
        json: { status, comment: '' },
      });
      expected.push({
        to: customer.email,
        subject: `VAL-${String(id).padStart(4, '0')} is now "${SAMPLE_STATUS_LABELS[status]}"`,
      });
    }
  }
  return expected;
}

const matches = (e: Expected) => (m: { to: string[]; subject: string }) =>
  m.to.includes(e.to) &&
  (typeof e.subject === 'string' ? m.subject === e.subject : e.subject.test(m.subject));

/** Every expected mail arrives, then, after a quiet spell, each is found exactly once. */
async function expectEachDeliveredOnce(expected: readonly Expected[], timeoutMs: number) {
  for (const e of expected) await smtp.waitFor(matches(e), { timeoutMs });
  await sleep(3000);
  const counts = expected.map((e) => `${e.to} ${String(e.subject)}: ${smtp.mails.filter(matches(e)).length}`);
  expect(counts).toEqual(expected.map((e) => `${e.to} ${String(e.subject)}: 1`));
}

describe.each(hasPostgres ? (['pglite', 'postgres'] as const) : (['pglite'] as const))(
  'mail after SIGKILL on %s',
  (kind) => {
    let dataDir: string;
    let env: Record<string, string>;
    let product: Product | undefined;
    beforeAll(async () => {
      dataDir = mkdtempSync(join(tmpdir(), `vl-mail-${kind}-`));
      // While the SMTP server refuses, each mail's retries double apart: capped at 5 s, every mail is
      // tried again within seconds of the restart. A short lease: a job that was being tried when the
      // process died is taken over within seconds too.
      env = {
        SMTP_URL: smtp.url,
        JOBS_RETRY_FIRST_SECONDS: '1',
        JOBS_RETRY_MAX_SECONDS: '5',
        JOBS_LEASE_SECONDS: '5',
      };
      if (kind === 'postgres') env.DATABASE_URL = await createDatabase(cluster.url, cluster.urlFor);
    });
    afterAll(async () => {
      await product?.stop('SIGKILL');
      smtp.setDown(false);
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('mails queued before the kill are each delivered exactly once after the restart', async () => {
      // The SMTP server refuses everything (451) while the mails are queued and the server is
      // killed, so none can have been delivered before: afterwards each must arrive, and only once.
      smtp.setDown(true);
      product = await startProduct(env, { dataDir, startTimeoutMs: START_TIMEOUT });
      const expected = await queueMails([product], `kill-${kind}`);
      expect(await product.stop('SIGKILL')).toBeNull();
      for (const e of expected) expect(smtp.mails.filter(matches(e))).toHaveLength(0);

      smtp.setDown(false);
      product = await startProduct(env, { dataDir, startTimeoutMs: START_TIMEOUT });
      await expectEachDeliveredOnce(expected, 60_000);
    });
  },
);

describe.skipIf(!hasPostgres)('two server processes on one PostgreSQL', () => {
  let a: Product | undefined;
  let b: Product | undefined;
  let dataDir: string;
  afterAll(async () => {
    await a?.stop('SIGKILL');
    await b?.stop('SIGKILL');
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('deliver each mail exactly once, whichever process queued it', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'vl-mail-two-'));
    const env = {
      SMTP_URL: smtp.url,
      JOBS_RETRY_FIRST_SECONDS: '1',
      DATABASE_URL: await createDatabase(cluster.url, cluster.urlFor),
    };
    a = await startProduct(env, { dataDir, startTimeoutMs: START_TIMEOUT });
    b = await startProduct(env, { dataDir, startTimeoutMs: START_TIMEOUT });
    const expected = await queueMails([a, b], 'twins');
    await expectEachDeliveredOnce(expected, 60_000);
  });
});
