import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PostgresCluster, startPostgresCluster } from '../support/postgres';
import { PROGRAMS, requireProgram } from '../support/programs';
import { E2E_ADMIN, type Product, startProduct } from '../support/product';
import { call } from '../support/http';
import { submissionForm } from '../support/factories';
import { bigPdf, rawMultipart } from './fixtures';
import { START_TIMEOUT, createDatabase, login, registerAndLogin, waitFor } from './helpers';

// The server killed with SIGKILL in the middle of an upload and of report issues: after a restart on
// the same DATA_DIR and database there is no orphan row, no orphan or temporary file, and no
// half-issued report; everything the server had accepted is there and readable.

const list = (dir: string) => (existsSync(dir) ? readdirSync(dir).sort() : []);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const { name, path, apt } = PROGRAMS.postgres;
const hasPostgres = requireProgram(name, path, apt, 'the crash-recovery tests');

let cluster: PostgresCluster;
beforeAll(async () => {
  if (!hasPostgres) return;
  cluster = await startPostgresCluster();
});
afterAll(() => cluster?.stop());

describe.each(hasPostgres ? (['pglite', 'postgres'] as const) : (['pglite'] as const))(
  'SIGKILL recovery on %s',
  (kind) => {
    let dataDir: string;
    let env: Record<string, string>;
    let product: Product | undefined;
    const filesDir = () => join(dataDir, 'files');

    beforeAll(async () => {
      dataDir = mkdtempSync(join(tmpdir(), `vl-crash-${kind}-`));
      env = { ORPHAN_SWEEP_GRACE_SECONDS: '0' };
      if (kind === 'postgres') env.DATABASE_URL = await createDatabase(cluster.url, cluster.urlFor);
    });
    afterAll(async () => {
      await product?.stop('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('mid-upload: no sample row, no file, no temp file after restart', async () => {
      product = await startProduct(env, { dataDir, startTimeoutMs: START_TIMEOUT });
      const customer = await registerAndLogin(product.url);
      const kept = await call(product, 'POST', '/api/samples', {
        token: customer.token,
        form: submissionForm(),
      });
      expect(kept.status).toBe(201);
      const keptFiles = list(join(filesDir(), 'uploads'));
      expect(keptFiles).toHaveLength(1);

      // A 4.5 MB document sent slowly; the kill comes once its temp file is on disk.
      const body = rawMultipart(bigPdf(4_500_000));
      const length = body.head.length + body.photo.length + body.tail.length;
      const url = new URL('/api/samples', product.url);
      const req = request(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${customer.token}`,
          'content-type': body.contentType,
          'content-length': String(length),
        },
      });
      req.on('error', () => {});
      req.write(body.head);
      let sent = 0;
      let sawTemp = false;
      while (sent < body.photo.length) {
        const chunk = body.photo.subarray(sent, sent + 64 * 1024);
        req.write(chunk);
        sent += chunk.length;
        await sleep(15);
        if (sent > 1_000_000 && list(join(filesDir(), 'uploads')).some((n) => n.includes('.tmp-'))) {
          sawTemp = true;
          break;
        }
      }
      expect(sawTemp).toBe(true);
      expect(sent).toBeLessThan(body.photo.length);
      await product.stop('SIGKILL');
      req.destroy();
      expect(list(join(filesDir(), 'uploads')).some((n) => n.includes('.tmp-'))).toBe(true);

      product = await startProduct(env, { dataDir, startTimeoutMs: START_TIMEOUT });
      const token = await login(product.url, customer.email, customer.password);
      const mine = await call(product, 'GET', '/api/samples', { token });
      expect(mine.status).toBe(200);
      expect((mine.body as { id: number }[]).map((s) => s.id)).toEqual([(kept.body as { id: number }).id]);
      expect(list(join(filesDir(), 'uploads'))).toEqual(keptFiles);
      const file = await call(product, 'GET', `/Uploads/${keptFiles[0]}`, { token });
      expect(file.status).toBe(200);
      await product.stop('SIGTERM');
      product = undefined;
    });

    it('mid report issue: every accepted revision is stored whole, nothing half-issued', async () => {
      product = await startProduct(env, { dataDir, startTimeoutMs: START_TIMEOUT });
      const customer = await registerAndLogin(product.url, 'reports');
      const admin = await login(product.url, E2E_ADMIN.email, E2E_ADMIN.password);
      const ids: number[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await call(product, 'POST', '/api/samples', {
          token: customer.token,
          form: submissionForm(),
        });
        expect(res.status).toBe(201);
        ids.push((res.body as { id: number }).id);
      }
      const accepted = new Map<number, { reportCode: string; revision: number; sha256: string }>();
      let stop = false;
      const target = product;
      const worker = async (id: number) => {
        for (let n = 1; !stop; n++) {
          const res = await call(target, 'POST', `/api/staff/samples/${id}/report`, {
            token: admin,
            json: {
              elements: [
                { element: 'Gold', percentage: 50 + (n % 40), purity: null, quality: null, notes: null },
              ],
            },
          }).catch(() => null);
          if (!res) return;
          if (res.status !== 200) throw new Error(`issue answered ${res.status}: ${res.text}`);
          accepted.set(id, res.body as { reportCode: string; revision: number; sha256: string });
        }
      };
      const running = ids.map(worker);
      await waitFor('a few issued revisions', async () =>
        [...accepted.values()].some((a) => a.revision >= 3),
      );
      await product.stop('SIGKILL');
      stop = true;
      await Promise.all(running);

      product = await startProduct(env, { dataDir, startTimeoutMs: START_TIMEOUT });
      const adminAgain = await login(product.url, E2E_ADMIN.email, E2E_ADMIN.password);
      const expectedFiles: string[] = [];
      for (const id of ids) {
        const detail = await call(product, 'GET', `/api/samples/${id}`, { token: adminAgain });
        expect(detail.status).toBe(200);
        const code = (detail.body as { reportCode: string | null }).reportCode;
        const last = accepted.get(id);
        if (!code) {
          expect(last).toBeUndefined();
          continue;
        }
        const pdf = await fetch(`${product.url}/api/report/${code}/pdf`, {
          headers: { authorization: `Bearer ${adminAgain}` },
        });
        expect(pdf.status).toBe(200);
        const bytes = Buffer.from(await pdf.arrayBuffer());
        expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
        expect(bytes.subarray(-8).toString()).toContain('%%EOF');
        const revision = Number(pdf.headers.get('x-report-revision'));
        // Every revision the server answered 200 for survived the kill.
        if (last) {
          expect(code).toBe(last.reportCode);
          expect(revision).toBeGreaterThanOrEqual(last.revision);
          if (revision === last.revision)
            expect(createHash('sha256').update(bytes).digest('hex')).toBe(last.sha256);
        }
        for (let r = 1; r <= revision; r++) expectedFiles.push(`${code}-r${r}.pdf`);
      }
      // Exactly one stored PDF per recorded revision: no orphan, no temp file, none missing.
      expect(list(join(filesDir(), 'reports'))).toEqual(expectedFiles.sort());
      await product.stop('SIGTERM');
      product = undefined;
    });
  },
);
