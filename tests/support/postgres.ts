import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// A throwaway PostgreSQL cluster from the installed server binaries (PostgreSQL
// refuses to run as root, so as root it runs as the `postgres` system user).

import { PG_BIN } from './programs';

export { PG_BIN };

export function postgresAvailable(): boolean {
  return existsSync(join(PG_BIN, 'initdb')) && existsSync(join(PG_BIN, 'pg_ctl'));
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

function runAsPostgres(cmd: string, args: string[]) {
  const [file, argv] = isRoot() ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
  const result = spawnSync(file, argv, { encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(`${cmd} failed (${result.status}): ${result.stderr || result.stdout}`);
  }
  return result.stdout;
}

export type PostgresCluster = {
  url: string;
  port: number;
  dataDir: string;
  /** Database URL for a database name in this cluster. */
  urlFor(database: string): string;
  stop(): void;
  /** Stops the server but keeps its data (fault tests). */
  pause(): void;
  resume(): void;
};

/**
 * Starts a throwaway cluster; `settings` adds server settings (`name=value`, as for `-c`). With
 * `keepIn` (a directory), the cluster lives there and outlives `stop()`: a later call with the same
 * directory starts it again with its data (benchmarks that seed for many minutes).
 */
export async function startPostgresCluster(
  settings: string[] = [],
  keepIn?: string,
): Promise<PostgresCluster> {
  if (!postgresAvailable()) throw new Error(`PostgreSQL server binaries not found in ${PG_BIN}`);
  const base = keepIn ?? mkdtempSync(join(tmpdir(), 'vl-pg-'));
  const dataDir = join(base, 'data');
  const socketDir = join(base, 'sock');
  const existing = keepIn !== undefined && existsSync(join(dataDir, 'PG_VERSION'));
  mkdirSync(socketDir, { recursive: true });
  chmodSync(base, 0o755);
  if (isRoot()) execFileSync('chown', ['-R', 'postgres:postgres', base]);
  if (!existing)
    runAsPostgres(join(PG_BIN, 'initdb'), [
      '-D',
      dataDir,
      '-A',
      'trust',
      '-U',
      'postgres',
      '--no-sync',
      '-E',
      'UTF8',
      '--locale=C',
    ]);
  const port = await freePort();
  const opts = [
    `-p ${port}`,
    `-k ${socketDir}`,
    "-c listen_addresses='127.0.0.1'",
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=300',
    ...settings.map((setting) => `-c ${setting}`),
  ].join(' ');
  const start = () =>
    runAsPostgres(join(PG_BIN, 'pg_ctl'), [
      '-D',
      dataDir,
      '-o',
      opts,
      '-l',
      join(base, 'log'),
      '-w',
      '-t',
      '30',
      'start',
    ]);
  start();
  const urlFor = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  let stopped = false;
  return {
    url: urlFor('postgres'),
    port,
    dataDir,
    urlFor,
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        // A kept cluster stops cleanly (a checkpoint), so its next start needs no recovery.
        runAsPostgres(join(PG_BIN, 'pg_ctl'), [
          '-D',
          dataDir,
          '-m',
          keepIn ? 'fast' : 'immediate',
          '-w',
          'stop',
        ]);
      } catch {
        // already down
      }
      if (!keepIn) rmSync(base, { recursive: true, force: true });
    },
    pause() {
      // 'fast' drops every connection like an outage but flushes the WAL first: the test clusters
      // run with fsync and synchronous_commit off, so an immediate stop could lose committed rows
      // and make a test see data loss that a production server (with both on) would not have.
      runAsPostgres(join(PG_BIN, 'pg_ctl'), ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
    },
    resume() {
      start();
    },
  };
}
