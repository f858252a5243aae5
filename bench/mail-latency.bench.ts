// `npm run build && npm run bench -- mail-latency`: how long a customer waits for the status mail.
// The built product (PGlite, the default) delivers to an SMTP server in this process; each of 30
// status changes is timed from the moment the request is sent until the message has arrived at the
// SMTP server. Changes one after another, then a burst of 20 at once. The load average is printed
// with the figures: the machine may be shared. Target (docs/product/mail.md): under 10 s.
// Results go to the "Mail delivery" section of docs/benchmarks.md.
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { SAMPLE_STATUS_LABELS, type SampleStatus } from '../common/domain/samples';
import { submitSample } from '../tests/support/factories';
import { callOk, loginToken, registerAccount } from '../tests/support/http';
import { E2E_ADMIN, startProduct } from '../tests/support/product';
import { startTestSmtp } from '../tests/support/smtp';

const SEQUENTIAL = Number(process.env.BENCH_MAILS ?? 30);
const BURST = 20;
const TARGET_MS = 10_000;
const STATUSES: SampleStatus[] = ['in-progress', 'analysis', 'review'];

const smtp = await startTestSmtp();
const product = await startProduct({ SMTP_URL: smtp.url, LOG_LEVEL: 'warn' }, { startTimeoutMs: 150_000 });
const fmt = (ms: number) => `${ms.toFixed(0)} ms`;
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
try {
  const account = {
    email: `bench-mail-${Date.now()}@example.com`,
    password: 'bench-password-1',
    firstName: 'Bea',
    lastName: 'Bench',
  };
  await registerAccount(product, account);
  const customer = await loginToken(product, account.email, account.password);
  const admin = await loginToken(product, E2E_ADMIN.email, E2E_ADMIN.password);
  const samples = await Promise.all(
    Array.from({ length: Math.ceil((SEQUENTIAL + BURST) / STATUSES.length) }, () =>
      submitSample(product, customer),
    ),
  );
  // Receipts and the welcome mail are out of the way before timing starts.
  await smtp.waitFor((m) => m.to.includes(account.email), { count: samples.length + 1, timeoutMs: 120_000 });

  let next = 0;
  /** One status change, timed until its mail is at the SMTP server. */
  async function timedChange(): Promise<number> {
    const i = next++;
    const id = samples[Math.floor(i / STATUSES.length)] as number;
    const status = STATUSES[i % STATUSES.length] as SampleStatus;
    const subject = `VAL-${String(id).padStart(4, '0')} is now "${SAMPLE_STATUS_LABELS[status]}"`;
    const start = performance.now();
    await callOk(product, 'POST', `/api/staff/samples/${id}/status`, {
      token: admin,
      json: { status, comment: '' },
    });
    await smtp.waitFor((m) => m.subject === subject, { timeoutMs: 60_000 });
    return performance.now() - start;
  }

  const report = (label: string, times: number[]) => {
    const sorted = [...times].sort((a, b) => a - b);
    console.log(
      `${label}: n=${sorted.length} median ${fmt(quantile(sorted, 0.5))}, p95 ${fmt(quantile(sorted, 0.95))}, ` +
        `max ${fmt(sorted[sorted.length - 1] ?? Number.NaN)} (target < ${TARGET_MS / 1000} s: ` +
        `${(sorted[sorted.length - 1] ?? Infinity) < TARGET_MS ? 'met' : 'NOT met'})`,
    );
  };

  console.log(
    `load average before: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (${process.arch})`,
  );
  const sequential: number[] = [];
  for (let i = 0; i < SEQUENTIAL; i++) sequential.push(await timedChange());
  report('one after another', sequential);
  const burst = await Promise.all(Array.from({ length: BURST }, () => timedChange()));
  report(`burst of ${BURST} at once`, burst);
  console.log(
    `load average after: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
} finally {
  await product.stop();
  await smtp.close();
}
