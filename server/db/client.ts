import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { restrictToOwner } from './file-modes';
import { claimPgliteDir } from './pglite-lock';
import * as schema from './schema';
import { encodeParam, type TextRow, TextRowsQuery, textParam } from './text-rows';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction or the database itself: query functions accept either. */
export type DbOrTx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db;

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /**
   * One statement straight on the driver, each row an array of its columns' text as PostgreSQL sends
   * it (null for SQL null); the caller decodes the columns it selected (`text-rows.ts`). On PostgreSQL
   * it is a named prepared statement sent without a Describe (`TextRowsQuery`). Only for the hottest
   * public read (public verification) and the session mix's hot statements (the session lookup, the
   * own list, the submission: `textStatement` / `runTextStatement`), where the driver's generic row
   * handling and drizzle's wrapping were a measurable share of the request (docs/benchmarks.md,
   * "Report verification" and "Load"; decisions 0018 and 0032); everything else goes through `db`.
   */
  queryTextRows(name: string, text: string, values: unknown[]): Promise<TextRow[]>;
  /**
   * One statement as drizzle builds it (`query.toSQL()`), unprepared, each row handed to `onRow` as
   * an array of its columns' text (null for SQL null) as soon as it arrives, parsed by no driver and
   * kept by nothing: on PostgreSQL the unnamed statement, without a Describe (`TextRowsQuery`). For
   * the CSV exports, which read millions of rows in batches and write each row out as it comes
   * (`RowBatches`, docs/benchmarks.md, "The export in constant memory"). An error `onRow` throws
   * ends the call with that error once the statement has completed.
   */
  eachTextRow(query: { sql: string; params: unknown[] }, onRow: (row: TextRow) => void): Promise<void>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
};

/** The folder of generated migrations, found from the project root in source and in dist/. */
export function migrationsFolder(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, 'server', 'db', 'migrations');
    if (existsSync(candidate)) return candidate;
    if (existsSync(join(dir, 'migrations', 'meta'))) return join(dir, 'migrations');
    dir = dirname(dir);
  }
  throw new Error('migrations folder not found');
}

// Several app instances may start at once on one PostgreSQL: one migrates, the others wait.
const MIGRATION_LOCK_ID = 4_242_001;

export async function openPostgres(url: string, opts: { max?: number } = {}): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: opts.max ?? 10, connectionTimeoutMillis: 5000 });
  // A dropped connection must not crash the process; queries fail and the pool reconnects.
  pool.on('error', () => {});
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    try {
      await migratePg(drizzlePg(client, { schema }), { migrationsFolder: migrationsFolder() });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
    }
  } finally {
    client.release();
  }
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    queryTextRows(name, text, values) {
      // pg-pool checks a client out, runs the submittable on it and answers, as a promise, what the
      // submittable's callback gives (its typings only describe the stream-like use).
      const query = new TextRowsQuery(name, text, values.map(textParam));
      return pool.query(query as unknown as pg.Submittable) as unknown as Promise<TextRow[]>;
    },
    async eachTextRow(query, onRow) {
      const params = query.params.map(encodeParam);
      await pool.query(new TextRowsQuery('', query.sql, params, onRow) as unknown as pg.Submittable);
    },
    async ping() {
      try {
        await pool.query('select 1');
        return true;
      } catch {
        return false;
      }
    },
    close: () => pool.end(),
  };
}

/**
 * The PostgreSQL extensions the migrations create (text search: docs/decisions/0025-search.md). PGlite
 * only has those it is given when it starts; PostgreSQL ships them in its contrib package.
 */
export const PGLITE_EXTENSIONS = { pg_trgm, unaccent };

export async function openPglite(
  dataDir: string | undefined,
  opts: { loadDataDir?: Blob } = {},
): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // One process at a time on a directory (pglite-lock.ts); released when the database is closed.
  const release = dataDir ? claimPgliteDir(dataDir) : () => {};
  if (dataDir) process.once('exit', release);
  // One options object: PGlite ignores the options argument when the first one is undefined.
  const client = new PGlite({
    dataDir: dataDir ? resolve(dataDir) : undefined,
    loadDataDir: opts.loadDataDir,
    extensions: PGLITE_EXTENSIONS,
  });
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  try {
    await client.waitReady;
    await migratePglite(db as never, { migrationsFolder: migrationsFolder() });
  } catch (err) {
    release();
    throw err;
  }
  if (dataDir) restrictToOwner(dataDir);
  // PGlite parses every type it has a parser for (its own and, after start-up, the database's array
  // types); these parsers keep each of them as PostgreSQL's text, as queryTextRows promises.
  const asIs = (text: string) => text;
  const textAsIs = Object.fromEntries(Object.keys(client.parsers).map((oid) => [oid, asIs]));
  return {
    db,
    kind: 'pglite',
    async queryTextRows(_name, text, values) {
      const result = await client.query<TextRow>(text, values, { rowMode: 'array', parsers: textAsIs });
      return result.rows;
    },
    async eachTextRow(query, onRow) {
      // PGlite answers the statement whole; its rows are handed over one by one all the same.
      const result = await client.query<TextRow>(query.sql, query.params, {
        rowMode: 'array',
        parsers: textAsIs,
      });
      for (const row of result.rows) onRow(row);
    },
    async ping() {
      try {
        await db.execute(sql`select 1`);
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      await client.close();
      release();
      process.off('exit', release);
      if (dataDir) restrictToOwner(dataDir);
    },
  };
}

export function openDatabase(config: { databaseUrl?: string; dataDir: string }): Promise<Database> {
  return config.databaseUrl ? openPostgres(config.databaseUrl) : openPglite(join(config.dataDir, 'db'));
}
