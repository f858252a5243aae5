import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Nginx, startNginx } from '../support/nginx';
import { type PostgresCluster, startPostgresCluster } from '../support/postgres';
import { PROGRAMS, requirePrograms } from '../support/programs';
import { E2E_ADMIN, type Product, startProduct } from '../support/product';
import { startRedis, type RedisServer } from '../support/redis';
import { call } from '../support/http';
import { submissionForm } from '../support/factories';
import { START_TIMEOUT, createDatabase, login, registerAndLogin } from './helpers';

// Two instances on one PostgreSQL and one shared DATA_DIR behind nginx, rate limits in Redis. A mixed
// workload runs while one instance is killed (SIGKILL); every submission and report the product
// accepted is present and readable afterwards, and reads never fail.

const ready = requirePrograms(
  [PROGRAMS.postgres, PROGRAMS.redis, PROGRAMS.nginx],
  'the two-instance test behind nginx',
);

let cluster: PostgresCluster;
let redis: RedisServer;
let nginx: Nginx | undefined;
let a: Product | undefined;
let b: Product | undefined;
let dataDir: string;

beforeAll(async () => {
  if (!ready) return;
  cluster = await startPostgresCluster();
  redis = await startRedis();
  dataDir = mkdtempSync(join(tmpdir(), 'vl-multi-'));
  const env = { DATABASE_URL: await createDatabase(cluster.url, cluster.urlFor), REDIS_URL: redis.url };
  a = await startProduct(env, { dataDir, startTimeoutMs: START_TIMEOUT });
  b = await startProduct(env, { dataDir, startTimeoutMs: START_TIMEOUT });
  nginx = await startNginx([a.url, b.url]);
});
afterAll(async () => {
  await nginx?.stop();
  await a?.stop('SIGKILL');
  await b?.stop('SIGKILL');
  await redis?.stop();
  cluster?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

type Accepted = { id: number; token: string };

describe.skipIf(!ready)('two instances behind nginx', () => {
  it('loses nothing it accepted when one instance dies mid-run', async () => {
    const lb = { url: nginx?.url ?? '' };
    const customers = await Promise.all([1, 2, 3].map((i) => registerAndLogin(lb.url, `multi${i}`)));
    const admin = await login(lb.url, E2E_ADMIN.email, E2E_ADMIN.password);

    const submissions: Accepted[] = [];
    const reports = new Map<number, { reportCode: string; revision: number }>();
    const refusedWrites: number[] = [];
    const refusedSubmissions = new Map<string, number>();
    const failedReads: string[] = [];
    const refusedDetails: string[] = [];
    let stop = false;

    const submitter = async (token: string) => {
      while (!stop) {
        const res = await call(lb, 'POST', '/api/samples', { token, form: submissionForm() }).catch(
          () => null,
        );
        if (res?.status === 201) submissions.push({ id: (res.body as { id: number }).id, token });
        else {
          refusedWrites.push(res?.status ?? 0);
          refusedSubmissions.set(token, (refusedSubmissions.get(token) ?? 0) + 1);
        }
        if (res && res.status !== 201 && res.status !== 502)
          refusedDetails.push(`submit ${res.status} ${res.text}`);
      }
    };
    const issuer = async () => {
      while (!stop) {
        const s = submissions[Math.floor(Math.random() * submissions.length)];
        if (!s) {
          await new Promise((r) => setTimeout(r, 20));
          continue;
        }
        const res = await call(lb, 'POST', `/api/staff/samples/${s.id}/report`, {
          token: admin,
          json: {
            elements: [{ element: 'Gold', percentage: 75, purity: '18k', quality: null, notes: '<p>ok</p>' }],
          },
        }).catch(() => null);
        if (res?.status === 200) {
          const r = res.body as { reportCode: string; revision: number };
          const prev = reports.get(s.id);
          if (!prev || prev.revision < r.revision) reports.set(s.id, r);
        } else {
          refusedWrites.push(res?.status ?? 0);
          // Two issuers on one sample at once: one wins, the other is told 409 (a conflict, not a loss).
          if (res && res.status !== 502 && res.status !== 409)
            refusedDetails.push(`issue ${res.status} ${res.text}`);
        }
      }
    };
    const reader = async (token: string) => {
      while (!stop) {
        const s = submissions[Math.floor(Math.random() * submissions.length)];
        const paths = [
          '/api/samples',
          '/api/auth/user',
          ...(s && s.token === token ? [`/api/samples/${s.id}`] : []),
        ];
        for (const path of paths) {
          const res = await call(lb, 'GET', path, { token }).catch((e: Error) => ({
            status: 0,
            text: e.message,
          }));
          if (res.status !== 200) failedReads.push(`${path} ${res.status}`);
        }
        const staff = await call(lb, 'GET', '/api/staff/samples', { token: admin }).catch(() => null);
        if (staff?.status !== 200) failedReads.push(`/api/staff/samples ${staff?.status ?? 0}`);
      }
    };

    const running = [
      ...customers.map((c) => submitter(c.token)),
      issuer(),
      issuer(),
      ...customers.map((c) => reader(c.token)),
    ];
    const until = async (what: () => boolean, ms: number) => {
      const deadline = Date.now() + ms;
      while (!what() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    };
    // Counted rather than timed, so a slow machine still sees work on both sides of the kill.
    await until(() => submissions.length >= 8 && reports.size >= 2, 60_000);
    const beforeKill = submissions.length;
    await a?.stop('SIGKILL');
    await until(() => submissions.length >= beforeKill + 8, 60_000);
    stop = true;
    await Promise.all(running);

    expect(beforeKill).toBeGreaterThan(3);
    expect(submissions.length).toBeGreaterThan(beforeKill);
    expect(reports.size).toBeGreaterThan(0);
    // Reads are idempotent: nginx moves them to the surviving instance, none fails.
    expect(failedReads).toEqual([]);
    // A write in flight on the killed instance may be refused (502), never silently lost.
    expect(refusedDetails).toEqual([]);
    expect(refusedWrites.every((s) => s === 502 || s === 409 || s === 0)).toBe(true);

    for (const s of submissions) {
      const detail = await call(lb, 'GET', `/api/samples/${s.id}`, { token: s.token });
      expect(detail.status).toBe(200);
      const files = (detail.body as { files: { fileName: string }[] }).files;
      expect(files).toHaveLength(1);
      const file = await call(lb, 'GET', `/Uploads/${files[0]?.fileName}`, { token: s.token });
      expect(file.status).toBe(200);
    }
    for (const [id, r] of reports) {
      const pdf = await fetch(`${lb.url}/api/report/${r.reportCode}/pdf`, {
        headers: { authorization: `Bearer ${admin}` },
      });
      expect(pdf.status, `report of sample ${id}`).toBe(200);
      expect(Number(pdf.headers.get('x-report-revision'))).toBeGreaterThanOrEqual(r.revision);
      expect(
        Buffer.from(await pdf.arrayBuffer())
          .subarray(0, 5)
          .toString(),
      ).toBe('%PDF-');
      expect((await call(lb, 'GET', `/api/reports/verify/${r.reportCode}`)).status).toBe(200);
    }
    // The customers see everything they were told was accepted. A submission whose answer was lost
    // with the killed instance (the client saw 502 or a cut connection) may have committed just
    // before the kill: then it is there whole (its file readable), never half-written, and there
    // are never more of those than refused submissions.
    for (const c of customers) {
      const mine = await call(lb, 'GET', '/api/samples', { token: c.token });
      const ids = (mine.body as { id: number }[]).map((x) => x.id);
      const accepted = submissions.filter((s) => s.token === c.token).map((s) => s.id);
      expect(ids).toEqual(expect.arrayContaining(accepted));
      const unacknowledged = ids.filter((id) => !accepted.includes(id));
      expect(unacknowledged.length).toBeLessThanOrEqual(refusedSubmissions.get(c.token) ?? 0);
      for (const id of unacknowledged) {
        const detail = await call(lb, 'GET', `/api/samples/${id}`, { token: c.token });
        expect(detail.status).toBe(200);
        const body = detail.body as { files: { fileName: string }[]; statusHistory: unknown[] };
        expect(body.files).toHaveLength(1);
        expect(body.statusHistory).toHaveLength(1);
        const file = await call(lb, 'GET', `/Uploads/${body.files[0]?.fileName}`, { token: c.token });
        expect(file.status).toBe(200);
      }
    }
  });
});
