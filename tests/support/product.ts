import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from './postgres';

export const E2E_ADMIN = { email: 'admin@lab.test', password: 'admin-password-1' };

export type Product = {
  url: string;
  /** The server process's id (benchmarks read its memory from /proc). */
  pid: number | undefined;
  dataDir: string;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
};

/**
 * The e2e run's ready-made DATA_DIR (tests/support/global-e2e.ts): an embedded database already
 * migrated, with the e2e admin and the lab's signing keys. A product given no DATA_DIR of its own
 * starts from a copy of it instead of migrating an empty database (seconds per test file).
 */
export const DATA_TEMPLATE_ENV = 'E2E_DATA_TEMPLATE';

/** Whether a start may use the template: its own embedded database, the e2e admin. */
const usesTemplate = (env: Record<string, string>, dataDir: string | undefined) => {
  const template = process.env[DATA_TEMPLATE_ENV];
  if (!template || dataDir || !existsSync(template)) return null;
  if ('DATABASE_URL' in env || 'ADMIN_EMAIL' in env || 'ADMIN_PASSWORD' in env) return null;
  return template;
};

/**
 * Node's flags for every product a test starts. One V8 background thread instead of one per core: a
 * journey runs two products, two Chromiums and two test workers on two cores, and each product's own
 * GC and compile threads only competed with the rest (docs/benchmarks.md, 2026-11-27 07:20: about
 * 20 % less CPU per product start, 8 % less wall per pair of journeys). It changes no behaviour.
 * E2E_PRODUCT_NODE_ARGS adds more, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile them.
 */
const PRODUCT_NODE_ARGS = [
  '--v8-pool-size=1',
  ...(process.env.E2E_PRODUCT_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
];

/** Starts the built product (`node dist/server/main.js`) on a free port with a temp DATA_DIR. */
export async function startProduct(
  env: Record<string, string> = {},
  opts: { dataDir?: string; startTimeoutMs?: number } = {},
): Promise<Product> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'vl-e2e-'));
  const template = usesTemplate(env, opts.dataDir);
  if (template) cpSync(template, dataDir, { recursive: true });
  const port = await freePort();
  let out = '';
  const child: ChildProcess = spawn(
    process.execPath,
    [...PRODUCT_NODE_ARGS, resolve(process.env.DIST_DIR ?? 'dist', 'server/main.js')],
    {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        ADMIN_EMAIL: E2E_ADMIN.email,
        ADMIN_PASSWORD: E2E_ADMIN.password,
        LOG_LEVEL: 'warn',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (opts.startTimeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`product exited early (${child.exitCode}):\n${out}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`product did not become healthy:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  return {
    url,
    pid: child.pid,
    dataDir,
    output: () => out,
    stop(signal = 'SIGTERM') {
      return new Promise((resolveStop) => {
        // A process ended by a signal has a null exitCode but a signalCode.
        if (child.exitCode !== null || child.signalCode !== null) {
          resolveStop(child.exitCode);
          return;
        }
        child.once('exit', (code) => {
          if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
          resolveStop(code);
        });
        child.kill(signal);
      });
    },
  };
}

/** Makes the template DATA_DIR: one start of the product on an empty one, stopped cleanly. */
export async function prepareDataTemplate(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'vl-e2e-template-'));
  const product = await startProduct({}, { dataDir: dir, startTimeoutMs: 120_000 });
  const code = await product.stop('SIGTERM');
  if (code !== 0)
    throw new Error(`the template product did not stop cleanly (${code}):\n${product.output()}`);
  return dir;
}
