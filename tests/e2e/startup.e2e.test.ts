import { spawn } from 'node:child_process';
import { chmodSync, lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type PostgresCluster, startPostgresCluster } from '../support/postgres';
import { startProduct } from '../support/product';

const mainJs = resolve(process.env.DIST_DIR ?? 'dist', 'server/main.js');

/** Runs the product expecting it to refuse to start; resolves with exit code and output. */
function runToExit(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [mainJs], {
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      done({ code, output });
    });
  });
}

async function post(url: string, path: string, body: unknown) {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Every file and folder under `root` that someone other than its owner may read, write or enter. */
function openToOthers(root: string): string[] {
  const found: string[] = [];
  const walk = (path: string) => {
    const stat = lstatSync(path);
    if ((stat.mode & 0o077) !== 0) found.push(`${(stat.mode & 0o777).toString(8)} ${path}`);
    if (stat.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(root);
  return found;
}

const dirs: string[] = [];
let cluster: PostgresCluster | undefined;
afterAll(() => {
  cluster?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('starting the product', () => {
  it('refuses a bad PORT with a clear message and exit code 1', async () => {
    const r = await runToExit({ PORT: 'abc', DATA_DIR: mkdtempSync(join(tmpdir(), 'vl-bad-')) });
    expect(r.code).toBe(1);
    expect(r.output).toContain('PORT');
  });

  it('refuses a TOTP_KEY that is not 32 bytes with a clear message and exit code 1', async () => {
    const r = await runToExit({ TOTP_KEY: 'too-short', DATA_DIR: mkdtempSync(join(tmpdir(), 'vl-bad-')) });
    expect(r.code).toBe(1);
    expect(r.output).toContain('TOTP_KEY must be 32 bytes');
  });

  it('refuses an unreachable DATABASE_URL with a clear message and exit code 1', async () => {
    const r = await runToExit({
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'vl-bad-')),
    });
    expect(r.code).toBe(1);
    expect(r.output).toContain('Cannot open the PostgreSQL database at DATABASE_URL');
  });

  it(
    'on a fresh data dir prints the generated admin login once, and data survives a restart',
    {
      timeout: 180_000,
    },
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'vl-fresh-'));
      dirs.push(dataDir);
      const env = { ADMIN_EMAIL: '', ADMIN_PASSWORD: '' };
      const first = await startProduct(env, { dataDir });
      // DATA_DIR and everything in it, the embedded database's files included, are owner-only.
      expect(openToOthers(dataDir)).toEqual([]);
      const printed = /Admin login: (\S+)\s+Password:\s+(\S+)/.exec(first.output());
      expect(printed?.[1]).toBe('admin@localhost');
      const password = printed?.[2] ?? '';
      expect((await post(first.url, '/login', { email: 'admin@localhost', password })).status).toBe(200);
      const reg = await post(first.url, '/api/register', {
        email: 'keep@me.test',
        password: 'persisted-1',
        firstName: 'Keep',
        lastName: 'Me',
      });
      expect(reg.status).toBe(201);
      expect(await first.stop('SIGTERM')).toBe(0);
      expect(openToOthers(dataDir)).toEqual([]);

      // A database folder left readable by an older version is tightened at the next start.
      const pgVersion = join(dataDir, 'db', 'PG_VERSION');
      chmodSync(pgVersion, 0o666);
      chmodSync(join(dataDir, 'db'), 0o755);
      const second = await startProduct(env, { dataDir });
      expect(openToOthers(dataDir)).toEqual([]);
      expect(second.output()).not.toContain('Password:');
      expect(
        (await post(second.url, '/login', { email: 'keep@me.test', password: 'persisted-1' })).status,
      ).toBe(200);
      expect((await post(second.url, '/login', { email: 'admin@localhost', password })).status).toBe(200);
      const page = await fetch(`${second.url}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');
      expect(await second.stop('SIGTERM')).toBe(0);
      expect(openToOthers(dataDir)).toEqual([]);
    },
  );

  it(
    'runs on a real PostgreSQL from DATABASE_URL, and data survives a restart',
    {
      timeout: 120_000,
    },
    async () => {
      cluster = await startPostgresCluster();
      const databaseUrl = cluster.urlFor('postgres');
      const dataDir = mkdtempSync(join(tmpdir(), 'vl-pgdata-'));
      dirs.push(dataDir);
      const first = await startProduct({ DATABASE_URL: databaseUrl }, { dataDir });
      const health = await fetch(`${first.url}/api/health`);
      expect(await health.json()).toEqual({ status: 'ok' });
      expect(
        (
          await post(first.url, '/api/register', {
            email: 'pg@user.test',
            password: 'persisted-2',
            firstName: 'Pg',
            lastName: 'User',
          })
        ).status,
      ).toBe(201);
      expect(await first.stop('SIGTERM')).toBe(0);
      const second = await startProduct({ DATABASE_URL: databaseUrl }, { dataDir });
      expect(
        (await post(second.url, '/login', { email: 'pg@user.test', password: 'persisted-2' })).status,
      ).toBe(200);
      expect(await second.stop('SIGTERM')).toBe(0);
    },
  );
});
