// Migration tests: a copy of the migrations folder that stops before a given migration, and an empty
// database on the driver the suite runs (the embedded PGlite, or a new database on the harness's real
// PostgreSQL), so that a test can migrate part way, insert the old shape's rows and migrate the rest.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { expect, inject } from 'vitest';
import { migrationsFolder, PGLITE_EXTENSIONS } from '../../server/db/client';
import { dbKind } from './test-app';

const dirs: string[] = [];

/** Removes the migrations folders' copies (a test file's afterAll). */
export function removeMigrationCopies() {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** A copy of the migrations folder that stops before `tag`. */
export function migrationsBefore(tag: string) {
  const dir = mkdtempSync(join(tmpdir(), 'vl-migrations-'));
  dirs.push(dir);
  cpSync(migrationsFolder(), dir, { recursive: true });
  const journalFile = join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as {
    entries: { idx: number; tag: string }[];
  };
  const stop = journal.entries.find((e) => e.tag === tag)?.idx ?? -1;
  expect(stop).toBeGreaterThan(0);
  journal.entries = journal.entries.filter((e) => e.idx < stop);
  writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

/** An empty database on this project's driver: run SQL, migrate with a migrations folder, close. */
export async function emptyDatabase() {
  if (dbKind() === 'pglite') {
    const client = new PGlite({ extensions: PGLITE_EXTENSIONS });
    const db = drizzlePglite(client);
    return {
      exec: async (text: string) => void (await client.exec(text)),
      rows: async (text: string) => (await client.query<Record<string, unknown>>(text)).rows,
      migrate: (folder: string) => migratePglite(db, { migrationsFolder: folder }),
      close: () => client.close(),
    };
  }
  const baseUrl = inject('pgUrl');
  const name = `m_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const client = new pg.Client({ connectionString: baseUrl.replace(/\/[^/]*$/, `/${name}`) });
  await client.connect();
  const db = drizzlePg(client);
  return {
    exec: async (text: string) => void (await client.query(text)),
    rows: async (text: string) => (await client.query<Record<string, unknown>>(text)).rows,
    migrate: (folder: string) => migratePg(db, { migrationsFolder: folder }),
    close: async () => {
      await client.end();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}
