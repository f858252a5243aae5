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
import { afterAll, expect, inject, it } from 'vitest';
import { dbKind } from '../../tests/support/test-app';
import { migrationsFolder, PGLITE_EXTENSIONS } from './client';

// Migration 0010 (the review history, docs/product/valuation-report.md) takes over the decisions the
// revisions still held: a database migrated up to 0009 with reviewed revisions gets one decision each.
// Run on the driver of the project: the embedded PGlite, and an empty database on the real PostgreSQL.

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A copy of the migrations folder that stops before `tag`. */
function migrationsBefore(tag: string) {
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
async function emptyDatabase() {
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

it('0010 records the last decision of every reviewed revision', { timeout: 60_000 }, async () => {
  const client = await emptyDatabase();
  await client.migrate(migrationsBefore('0010_review_decisions'));
  await client.exec(`
    insert into users (id, email, password_hash, first_name) values
      (1, 'owner@x.test', 'x', 'Olivia'), (2, 'ada@x.test', 'x', 'Ada'), (3, 'rita@x.test', 'x', 'Rita');
    insert into samples (id, user_id, submitter_name, submitter_email, item_name, category, description)
      values (10, 1, 'Olivia', 'owner@x.test', 'Ewer', 'other', 'A ewer');
    insert into report_revisions
      (sample_id, report_code, revision, storage_key, sha256, byte_size, issued_by, state, reviewed_by, reviewed_at, review_comment)
    values
      (10, 'ABCDEFGH', 1, 'k1', repeat('a', 64), 1, 2, 'issued', 3, '2026-01-02T10:00:00Z', null),
      (10, 'ABCDEFGH', 2, 'k2', repeat('b', 64), 1, 2, 'returned', 3, '2026-01-03T10:00:00Z', 'State the purity.'),
      (10, 'ABCDEFGH', 3, 'k3', repeat('c', 64), 1, 2, 'issued', null, null, null);
  `);
  await client.migrate(migrationsFolder());
  const rows = await client.rows(
    `select sample_id, report_code, revision, decision, reviewer_id, author_id, decided_at, comment
     from report_review_decisions order by revision`,
  );
  expect(rows).toEqual([
    {
      sample_id: 10,
      report_code: 'ABCDEFGH',
      revision: 1,
      decision: 'approved',
      reviewer_id: 3,
      author_id: 2,
      decided_at: new Date('2026-01-02T10:00:00Z'),
      comment: null,
    },
    {
      sample_id: 10,
      report_code: 'ABCDEFGH',
      revision: 2,
      decision: 'returned',
      reviewer_id: 3,
      author_id: 2,
      decided_at: new Date('2026-01-03T10:00:00Z'),
      comment: 'State the purity.',
    },
  ]);
  await client.close();
});
