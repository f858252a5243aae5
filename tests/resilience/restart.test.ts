import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PostgresCluster, startPostgresCluster } from '../support/postgres';
import { PROGRAMS, requireProgram } from '../support/programs';
import { E2E_ADMIN, type Product, startProduct } from '../support/product';
import { call } from '../support/http';
import { submissionForm } from '../support/factories';
import { START_TIMEOUT, createDatabase, login, registerAndLogin } from './helpers';

// Data survives a restart on both databases, and SIGTERM lets requests in flight finish.

const { name, path, apt } = PROGRAMS.postgres;
const hasPostgres = requireProgram(name, path, apt, 'the restart tests');

let cluster: PostgresCluster;
beforeAll(async () => {
  if (!hasPostgres) return;
  cluster = await startPostgresCluster();
});
afterAll(() => cluster?.stop());

describe.each(hasPostgres ? (['pglite', 'postgres'] as const) : (['pglite'] as const))(
  'restart on %s',
  (kind) => {
    let dataDir: string;
    let env: Record<string, string>;
    let product: Product | undefined;
    beforeAll(async () => {
      dataDir = mkdtempSync(join(tmpdir(), `vl-restart-${kind}-`));
      env = kind === 'postgres' ? { DATABASE_URL: await createDatabase(cluster.url, cluster.urlFor) } : {};
    });
    afterAll(async () => {
      await product?.stop('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('keeps accounts, samples, files, reports and tokens across a SIGTERM restart', async () => {
      product = await startProduct(env, { dataDir, startTimeoutMs: START_TIMEOUT });
      const customer = await registerAndLogin(product.url);
      const admin = await login(product.url, E2E_ADMIN.email, E2E_ADMIN.password);
      const created = await call(product, 'POST', '/api/samples', {
        token: customer.token,
        form: submissionForm(),
      });
      expect(created.status).toBe(201);
      const id = (created.body as { id: number }).id;
      const issued = await call(product, 'POST', `/api/staff/samples/${id}/report`, {
        token: admin,
        json: {
          elements: [{ element: 'Silver', percentage: 92.5, purity: '925', quality: null, notes: null }],
        },
      });
      expect(issued.status).toBe(200);
      const { reportCode, sha256 } = issued.body as { reportCode: string; sha256: string };
      expect(await product.stop('SIGTERM')).toBe(0);

      product = await startProduct(env, { dataDir, startTimeoutMs: START_TIMEOUT });
      // The token issued before the restart is still valid (the secret is kept in DATA_DIR).
      const detail = await call(product, 'GET', `/api/samples/${id}`, { token: customer.token });
      expect(detail.status).toBe(200);
      const body = detail.body as { itemName: string; files: { fileName: string }[]; reportCode: string };
      expect(body.itemName).toBe('Georgian Silver Teapot');
      expect(body.reportCode).toBe(reportCode);
      const file = await call(product, 'GET', `/Uploads/${body.files[0]?.fileName}`, {
        token: customer.token,
      });
      expect(file.status).toBe(200);
      const pdf = await fetch(`${product.url}/api/report/${reportCode}/pdf`, {
        headers: { authorization: `Bearer ${customer.token}` },
      });
      expect(pdf.status).toBe(200);
      const { createHash } = await import('node:crypto');
      expect(
        createHash('sha256')
          .update(Buffer.from(await pdf.arrayBuffer()))
          .digest('hex'),
      ).toBe(sha256);
      expect((await call(product, 'GET', `/api/reports/verify/${reportCode}`)).status).toBe(200);
      expect(await login(product.url, customer.email, customer.password)).toBeTruthy();
      expect(await product.stop('SIGTERM')).toBe(0);
      product = undefined;
    });

    it('finishes a request in flight on SIGTERM, then exits 0', async () => {
      product = await startProduct(env, { dataDir, startTimeoutMs: START_TIMEOUT });
      const json = Buffer.from(
        JSON.stringify({
          email: `inflight-${kind}@example.com`,
          password: 'long-enough-1',
          firstName: 'In',
          lastName: 'Flight',
        }),
      );
      const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(new URL('/api/register', product?.url), {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': String(json.length) },
        });
        req.on('response', (res) => {
          let body = '';
          res.on('data', (d) => (body += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.write(json.subarray(0, 10));
        // The rest arrives after the signal.
        setTimeout(() => req.end(json.subarray(10)), 700);
      });
      await new Promise((r) => setTimeout(r, 200));
      const exited = product.stop('SIGTERM');
      const res = await answer;
      expect(res.status).toBe(201);
      expect(JSON.parse(res.body)).toMatchObject({ email: `inflight-${kind}@example.com` });
      expect(await exited).toBe(0);

      product = await startProduct(env, { dataDir, startTimeoutMs: START_TIMEOUT });
      expect(await login(product.url, `inflight-${kind}@example.com`, 'long-enough-1')).toBeTruthy();
      expect(await product.stop('SIGTERM')).toBe(0);
      product = undefined;
    });
  },
);
