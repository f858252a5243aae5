import { afterAll, expect, it } from 'vitest';
import { emptyDatabase, migrationsBefore, removeMigrationCopies } from '../../tests/support/migration-db';
import { migrationsFolder } from './client';

// Migration 0010 (the review history, docs/product/valuation-report.md) takes over the decisions the
// revisions still held: a database migrated up to 0009 with reviewed revisions gets one decision each.
// Run on the driver of the project: the embedded PGlite, and an empty database on the real PostgreSQL.

afterAll(removeMigrationCopies);

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
