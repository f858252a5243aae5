// A server under test for bench/verify.bench.ts, in its own process so that it never shares an
// event loop with the load generator. MODE=minimal: node:http + pg with a named prepared statement
// running the app's own SQL. MODE=app: the real app (buildApp). Prints "LISTENING <port>".
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import pg from 'pg';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { openPostgres } from '../server/db/client';
import { verificationQuery } from '../server/modules/verification/verification.queries';
import { createDiskStorage } from '../server/storage/disk-storage';
import { startProfile } from './cpu-profile';

const POOL = 10;
const url = process.env.DATABASE_URL ?? '';

async function main() {
  const database = await openPostgres(url, { max: POOL });
  let server: Server;
  if (process.env.MODE === 'minimal') {
    const { sql, params } = verificationQuery(database.db).toSQL();
    // The code placeholder becomes the request's code; the other parameters (the limit) stay as built.
    const valuesFor = (code: string) => params.map((p) => (p !== null && typeof p === 'object' ? code : p));
    const pool = new pg.Pool({ connectionString: url, max: POOL });
    server = createServer(async (req, res) => {
      const code = decodeURIComponent((req.url ?? '').split('/').pop() ?? '')
        .trim()
        .toUpperCase();
      try {
        const r = await pool.query({ name: 'verify', text: sql, values: valuesFor(code) });
        const row = r.rows[0];
        res.writeHead(row ? 200 : 404, { 'content-type': 'application/json' });
        res.end(JSON.stringify(row ?? { message: 'Report not found' }));
      } catch {
        res.writeHead(500).end();
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  } else if (process.env.MODE === 'fastify') {
    // A reference point between the two: bare Fastify (no hooks, no plugins) running the same SQL on
    // the same driver and answering the row. What separates it from the app is the app's own work.
    const { sql, params } = verificationQuery(database.db).toSQL();
    const valuesFor = (code: string) => params.map((p) => (p !== null && typeof p === 'object' ? code : p));
    const pool = new pg.Pool({ connectionString: url, max: POOL });
    const bare = Fastify({ logger: false });
    bare.get<{ Params: { code: string } }>('/api/reports/verify/:code', async (req, reply) => {
      const code = req.params.code.trim().toUpperCase();
      const r = await pool.query({ name: 'verify', text: sql, values: valuesFor(code) });
      const row = r.rows[0];
      return reply
        .code(row ? 200 : 404)
        .type('application/json')
        .send(JSON.stringify(row ?? { message: 'Report not found' }));
    });
    await bare.listen({ port: 0, host: '127.0.0.1' });
    server = bare.server;
  } else {
    const dataDir = mkdtempSync(join(tmpdir(), 'vl-bench-verify-app-'));
    const config = loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      RATE_LIMITS: process.env.RATE_LIMITS ?? 'off',
      JWT_SECRET: 'x'.repeat(40),
    });
    const app = await buildApp({
      config,
      database,
      storage: createDiskStorage(join(dataDir, 'files')),
      logger: false,
      serveWeb: false,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    server = app.server;
  }
  const a = server.address();
  const port = typeof a === 'object' && a ? a.port : 0;
  // CPU time per answered request (this process: HTTP, the handler, pg, the log): on a shared
  // machine it compares the two servers better than requests per second do.
  let requests = 0;
  server.on('request', () => requests++);
  const cpuAtStart = process.cpuUsage();
  // BENCH_CPU_PROFILE=file: a CPU profile of the serving (not the start-up), written on SIGTERM.
  const profile = await startProfile(process.env.BENCH_CPU_PROFILE || undefined);
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.on(signal, () => {
      const cpu = process.cpuUsage(cpuAtStart);
      const micros = cpu.user + cpu.system;
      console.log(`CPU ${requests} ${micros}`);
      void profile.stop().finally(() => process.exit(0));
    });
  console.log(`LISTENING ${port}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
