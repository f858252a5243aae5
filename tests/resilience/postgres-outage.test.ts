import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PostgresCluster, startPostgresCluster } from '../support/postgres';
import { PROGRAMS, requireProgram } from '../support/programs';
import { type Product, startProduct } from '../support/product';
import { call } from '../support/http';
import { START_TIMEOUT, createDatabase, registerAndLogin, waitFor } from './helpers';

// PostgreSQL goes away while the product serves: health and calls answer 503 with a clear message,
// nothing crashes, and service comes back by itself when PostgreSQL is back (no app restart).
const { name, path, apt } = PROGRAMS.postgres;
const hasPostgres = requireProgram(name, path, apt, 'the PostgreSQL outage test');

let cluster: PostgresCluster;
let product: Product;

beforeAll(async () => {
  if (!hasPostgres) return;
  cluster = await startPostgresCluster();
  product = await startProduct(
    { DATABASE_URL: await createDatabase(cluster.url, cluster.urlFor) },
    { startTimeoutMs: START_TIMEOUT },
  );
});
afterAll(async () => {
  await product?.stop();
  cluster?.stop();
});

describe.skipIf(!hasPostgres)('PostgreSQL stopped while serving', () => {
  it('answers 503 while the database is down and recovers without a restart', async () => {
    const user = await registerAndLogin(product.url);
    expect((await call(product, 'GET', '/api/auth/user', { token: user.token })).status).toBe(200);

    cluster.pause();
    const health = await call(product, 'GET', '/api/health');
    expect(health.status).toBe(503);
    expect(health.body).toEqual({ status: 'unavailable' });

    const started = Date.now();
    const me = await call(product, 'GET', '/api/auth/user', { token: user.token });
    expect(me.status).toBe(503);
    expect(me.body).toEqual({ message: 'The service is temporarily unavailable. Please try again shortly.' });
    const loginDown = await call(product, 'POST', '/login', {
      json: { email: user.email, password: user.password },
    });
    expect(loginDown.status).toBe(503);
    expect(loginDown.text).not.toMatch(/select|insert|ECONN|stack|postgres/i);
    const registerDown = await call(product, 'POST', '/api/register', {
      json: { email: 'down@example.com', password: 'long-enough-1', firstName: 'A', lastName: 'B' },
    });
    expect(registerDown.status).toBe(503);
    // Fails fast rather than hanging on a dead database.
    expect(Date.now() - started).toBeLessThan(15_000);

    cluster.resume();
    await waitFor('health 200 after PostgreSQL is back', async () => {
      const h = await call(product, 'GET', '/api/health');
      return h.status === 200;
    });
    const after = await call(product, 'GET', '/api/auth/user', { token: user.token });
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ email: user.email });
    const again = await registerAndLogin(product.url, 'after');
    expect(again.token).toBeTruthy();
    // The same process served throughout: no crash, no restart.
    expect(product.output()).not.toMatch(/uncaught|unhandled/i);
  });
});
