import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { call } from '../support/http';

/** Creates an empty database in a cluster and returns its URL. */
export async function createDatabase(clusterUrl: string, urlFor: (db: string) => string) {
  const name = `r_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: clusterUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  return urlFor(name);
}

/** Registers a customer over HTTP and logs in. */
export async function registerAndLogin(url: string, prefix = 'cust') {
  const email = `${prefix}-${randomBytes(4).toString('hex')}@example.com`;
  const password = 'resilient-pass-1';
  const reg = await call({ url }, 'POST', '/api/register', {
    json: { email, password, firstName: 'Res', lastName: 'Ilient' },
  });
  if (reg.status !== 201) throw new Error(`register failed: ${reg.status} ${reg.text}`);
  const login = await call({ url }, 'POST', '/login', { json: { email, password } });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${login.text}`);
  return {
    email,
    password,
    id: (reg.body as { id: number }).id,
    token: (login.body as { token: string }).token,
  };
}

export async function login(url: string, email: string, password: string) {
  const res = await call({ url }, 'POST', '/login', { json: { email, password } });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${res.text}`);
  return (res.body as { token: string }).token;
}

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | false>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A first PGlite start on a busy machine can take long: the product gets this long to be healthy. */
export const START_TIMEOUT = 150_000;
