// A server under test for bench/verify.bench.ts, in its own process so that it never shares an
// event loop with the load generator. MODE=minimal: node:http + pg with a named prepared statement
// running the app's own SQL. MODE=app: the real app (buildApp). Prints "LISTENING <port>".
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { openPostgres } from '../server/db/client';
import { verificationQuery } from '../server/modules/verification/verification.queries';
import { createDiskStorage } from '../server/storage/disk-storage';

const POOL = 10;
const url = process.env.DATABASE_URL ?? '';

async function main() {
  const database = await openPostgres(url, { max: POOL });
  let port = 0;
  if (process.env.MODE === 'minimal') {
    const { sql, params } = verificationQuery(database.db).toSQL();
    // The code placeholder becomes the request's code; the other parameters (the limit) stay as built.
    const valuesFor = (code: string) => params.map((p) => (p !== null && typeof p === 'object' ? code : p));
    const pool = new pg.Pool({ connectionString: url, max: POOL });
    const server = createServer(async (req, res) => {
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
    const a = server.address();
    port = typeof a === 'object' && a ? a.port : 0;
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
    const a = app.server.address();
    port = typeof a === 'object' && a ? a.port : 0;
  }
  console.log(`LISTENING ${port}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

// Exit cleanly on a signal so `node --cpu-prof` can write its profile.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0));
