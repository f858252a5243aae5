import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './postgres';
import { programInstalled, REDIS_BIN } from './programs';

// A throwaway Debian `redis-server` on a loopback port, nothing persisted.

export { REDIS_BIN };
export const redisAvailable = () => programInstalled(REDIS_BIN);

export type RedisServer = { url: string; port: number; stop(): Promise<void> };

const canConnect = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = createConnection({ port, host: '127.0.0.1' });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });

export async function startRedis(): Promise<RedisServer> {
  if (!redisAvailable())
    throw new Error(`redis-server not found at ${REDIS_BIN} (apt-get install redis-server)`);
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'vl-redis-'));
  const child: ChildProcess = spawn(
    REDIS_BIN,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: 'ignore' },
  );
  const deadline = Date.now() + 10_000;
  while (!(await canConnect(port))) {
    if (child.exitCode !== null) throw new Error(`redis-server exited (${child.exitCode})`);
    if (Date.now() > deadline) throw new Error('redis-server did not start');
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: () =>
      new Promise((resolve) => {
        const done = () => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        };
        if (child.exitCode !== null) return done();
        child.once('exit', done);
        child.kill('SIGTERM');
      }),
  };
}
