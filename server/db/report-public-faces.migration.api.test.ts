import { afterAll, expect, it } from 'vitest';
import { emptyDatabase, migrationsBefore, removeMigrationCopies } from '../../tests/support/migration-db';
import { migrationsFolder } from './client';

// Migration 0033 (decision 0033): public verification reads each code's public face, a small row kept
// by triggers on the revisions, the elements and the samples. A database migrated up to 0032 gets a
// face for every code with an issued revision (the latest one), and from then on every insert,
// update, delete and truncate of those tables keeps the faces right. Run on the driver of the project: the embedded PGlite, and an
// empty database on the real PostgreSQL.

afterAll(removeMigrationCopies);

const identification = (n: number) => ({
  maker: `Maker ${n}`,
  period: null,
  origin: null,
  marks: null,
  dimensions: null,
  materials: null,
});

const silver = { element: 'Silver', percentage: 12.5, purity: null, quality: 'Good' };
const gold = { element: 'Gold', percentage: 75, purity: '18k', quality: 'Excellent' };

const valuation = (n: number) => ({
  low: 100 * n,
  high: 200 * n,
  currency: 'EUR',
  valueType: 'fair-market',
  effectiveDate: '2026-01-02',
});

const content = (n: number) =>
  JSON.stringify({
    valuation: { ...valuation(n), basis: 'Private basis' },
    authenticity: { verdict: 'authentic', rationale: 'Private rationale' },
    condition: { grade: 'good', notes: 'Private notes' },
    identification: identification(n),
    summary: 'Private summary',
    photoIds: [n, n + 1],
    assignment: {
      intendedUse: 'Insurance',
      intendedUsers: 'Private users',
      inspection: 'in-person',
      scopeOfWork: 'Private',
    },
    comparables: [{ description: 'Private comparable' }],
  });

const face = (n: number) => ({
  valuation: valuation(n),
  authenticity: { verdict: 'authentic' },
  condition: { grade: 'good' },
  identification: identification(n),
  photoIds: [n, n + 1],
  assignment: { intendedUse: 'Insurance', inspection: 'in-person' },
});

it(
  "0033 derives every code's public face with its elements and sample, and the triggers keep it through every change",
  { timeout: 60_000 },
  async () => {
    const client = await emptyDatabase();
    await client.migrate(migrationsBefore('0033_report_public_faces'));
    await client.exec(`
    insert into users (id, email, password_hash, first_name) values
      (1, 'owner@x.test', 'x', 'Olivia'), (2, 'ada@x.test', 'x', 'Ada'), (3, 'rita@x.test', 'x', 'Rita');
    insert into samples (id, user_id, submitter_name, submitter_email, item_name, category, description, status, report_code, submission_date, last_updated) values
      (10, 1, 'Olivia', 'owner@x.test', 'Ewer', 'other', 'A ewer', 'completed', 'AAAAAAAA', '2025-12-01T09:00:00Z', '2026-01-02T10:00:00Z'),
      (11, 1, 'Olivia', 'owner@x.test', 'Jug', 'other', 'A jug', 'in_progress', null, '2025-12-02T09:00:00Z', '2025-12-03T09:00:00Z'),
      (12, 1, 'Olivia', 'owner@x.test', 'Cup', 'other', 'A cup', 'completed', 'CCCCCCCC', '2025-12-04T09:00:00Z', '2026-01-05T10:00:00Z');
    insert into report_revisions
      (sample_id, report_code, revision, storage_key, sha256, byte_size, issued_at, issued_by, state, reviewed_by, reviewed_at, content)
    values
      (10, 'AAAAAAAA', 1, 'k1', repeat('a', 64), 1, '2026-01-01T10:00:00Z', 2, 'issued', null, null, '${content(1)}'),
      (10, 'AAAAAAAA', 2, 'k2', repeat('b', 64), 1, '2026-01-02T10:00:00Z', 2, 'issued', 3, '2026-01-02T11:00:00Z', '${content(2)}'),
      (10, 'AAAAAAAA', 3, 'k3', repeat('c', 64), 1, '2026-01-03T10:00:00Z', 2, 'awaiting-review', null, null, '${content(3)}'),
      (11, 'BBBBBBBB', 1, 'k4', repeat('d', 64), 1, '2026-01-04T10:00:00Z', 2, 'awaiting-review', null, null, '${content(4)}'),
      (12, 'CCCCCCCC', 1, 'k5', repeat('e', 64), 1, '2026-01-05T10:00:00Z', 2, 'issued', null, null, null);
    insert into report_elements (id, sample_id, element, percentage, purity, quality) values
      (1, 10, 'Silver', 12.50, null, 'Good'), (2, 10, 'Gold', 75.00, '18k', 'Excellent');
  `);
    await client.migrate(migrationsFolder());
    const faces = () =>
      client.rows(
        `select report_code, revision, issued_at, issued_by, reviewed_by, reviewed_at, face, elements
       from report_public_faces order by report_code`,
      );
    // The backfill: the latest issued revision of each code, nothing for a code only awaiting review,
    // and a null face for a revision without content. Nothing private is copied.
    expect(await faces()).toEqual([
      {
        report_code: 'AAAAAAAA',
        revision: 2,
        issued_at: new Date('2026-01-02T10:00:00Z'),
        issued_by: 2,
        reviewed_by: 3,
        reviewed_at: new Date('2026-01-02T11:00:00Z'),
        face: face(2),
        elements: [silver, gold],
      },
      {
        report_code: 'CCCCCCCC',
        revision: 1,
        issued_at: new Date('2026-01-05T10:00:00Z'),
        issued_by: 2,
        reviewed_by: null,
        reviewed_at: null,
        face: null,
        elements: null,
      },
    ]);
    const elementsOf = async (code: string) =>
      (await client.rows(`select elements from report_public_faces where report_code = '${code}'`))[0]
        ?.elements;
    const sampleOf = async (code: string) =>
      (
        await client.rows(
          `select sample_id, item_name, category, status, submission_date, last_updated, assigned_staff_id,
             report_revoked_at, report_revoked_reason
           from report_public_faces where report_code = '${code}'`,
        )
      )[0];
    expect(await sampleOf('AAAAAAAA')).toEqual({
      sample_id: 10,
      item_name: 'Ewer',
      category: 'other',
      status: 'completed',
      submission_date: new Date('2025-12-01T09:00:00Z'),
      last_updated: new Date('2026-01-02T10:00:00Z'),
      assigned_staff_id: null,
      report_revoked_at: null,
      report_revoked_reason: null,
    });
    // A change of a shown column of a sample with a code reaches its face (a revocation, a rename,
    // an assignment); a sample still without a code has no face to keep.
    await client.exec(
      `update samples set report_revoked_at = '2026-02-01T10:00:00Z', report_revoked_reason = 'Withdrawn',
         item_name = 'Ewer, silver', assigned_staff_id = 2, last_updated = '2026-02-01T10:00:00Z' where id = 10`,
    );
    expect(await sampleOf('AAAAAAAA')).toMatchObject({
      item_name: 'Ewer, silver',
      assigned_staff_id: 2,
      last_updated: new Date('2026-02-01T10:00:00Z'),
      report_revoked_at: new Date('2026-02-01T10:00:00Z'),
      report_revoked_reason: 'Withdrawn',
    });
    await client.exec(`update samples set item_name = 'Jug, pewter' where id = 11`);
    expect(await sampleOf('BBBBBBBB')).toBeUndefined();
    const faceOf = async (code: string) =>
      (await client.rows(`select revision, face from report_public_faces where report_code = '${code}'`))[0];

    // A revision approved (updated to issued) becomes the face; sent back, the previous one returns.
    await client.exec(
      `update report_revisions set state = 'issued' where report_code = 'AAAAAAAA' and revision = 3`,
    );
    expect(await faceOf('AAAAAAAA')).toEqual({ revision: 3, face: face(3) });
    await client.exec(
      `update report_revisions set state = 'returned' where report_code = 'AAAAAAAA' and revision = 3`,
    );
    expect(await faceOf('AAAAAAAA')).toEqual({ revision: 2, face: face(2) });
    // A content change of the current revision is followed.
    await client.exec(
      `update report_revisions set content = '${content(7)}' where report_code = 'AAAAAAAA' and revision = 2`,
    );
    expect(await faceOf('AAAAAAAA')).toEqual({ revision: 2, face: face(7) });
    // A new issued revision, inserted after its sample's elements: it brings them.
    await client.exec(
      `insert into report_elements (id, sample_id, element, percentage) values (3, 11, 'Copper', 40)`,
    );
    await client.exec(`
    insert into report_revisions (sample_id, report_code, revision, storage_key, sha256, byte_size, issued_by, state, content)
    values (11, 'BBBBBBBB', 2, 'k6', repeat('f', 64), 1, 2, 'issued', '${content(5)}')`);
    expect(await faceOf('BBBBBBBB')).toEqual({ revision: 2, face: face(5) });
    expect(await sampleOf('BBBBBBBB')).toMatchObject({
      sample_id: 11,
      item_name: 'Jug, pewter',
      status: 'in_progress',
    });
    // Issuing then marks the sample (its code, status and times): the face follows.
    await client.exec(`update samples set report_code = 'BBBBBBBB', status = 'completed' where id = 11`);
    expect(await sampleOf('BBBBBBBB')).toMatchObject({ sample_id: 11, status: 'completed' });
    expect(await elementsOf('BBBBBBBB')).toEqual([
      { element: 'Copper', percentage: 40, purity: null, quality: null },
    ]);
    // Elements changed after the revision (added, edited, removed) reach its face, in their order.
    await client.exec(
      `insert into report_elements (id, sample_id, element, percentage) values (4, 10, 'Tin', 1)`,
    );
    const tin = { element: 'Tin', percentage: 1, purity: null, quality: null };
    expect(await elementsOf('AAAAAAAA')).toEqual([silver, gold, tin]);
    await client.exec(`update report_elements set percentage = 80 where id = 2`);
    expect(await elementsOf('AAAAAAAA')).toEqual([silver, { ...gold, percentage: 80 }, tin]);
    await client.exec(`delete from report_elements where sample_id = 10 and id <> 4`);
    expect(await elementsOf('AAAAAAAA')).toEqual([tin]);
    await client.exec(`delete from report_elements where id = 4`);
    expect(await elementsOf('AAAAAAAA')).toBeNull();
    await client.exec(
      `insert into report_elements (id, sample_id, element, percentage) values (5, 10, 'Lead', 2)`,
    );
    // Deleting revisions (directly, or with their sample) removes the face or goes back one revision.
    await client.exec(`delete from report_revisions where report_code = 'AAAAAAAA' and revision = 2`);
    expect(await faceOf('AAAAAAAA')).toEqual({ revision: 1, face: face(1) });
    await client.exec(`delete from samples where id = 10`);
    expect(await faceOf('AAAAAAAA')).toBeUndefined();
    expect((await faces()).map((f) => f.report_code)).toEqual(['BBBBBBBB', 'CCCCCCCC']);
    // A truncate of the elements leaves the faces without elements; one of the revisions empties them.
    await client.exec(`truncate report_elements`);
    expect(await elementsOf('BBBBBBBB')).toBeNull();
    expect((await faces()).map((f) => f.report_code)).toEqual(['BBBBBBBB', 'CCCCCCCC']);
    await client.exec(`truncate report_revisions`);
    expect(await faces()).toEqual([]);
    await client.close();
  },
);

it('keeps the faces of revisions inserted in bulk, in one statement', { timeout: 60_000 }, async () => {
  // A restore or an import writes thousands of revisions at once, into tables whose statistics are
  // still those of an empty database: each face is still derived from its own revision and sample.
  const client = await emptyDatabase();
  await client.migrate(migrationsFolder());
  await client.exec(`
    insert into users (id, email, password_hash, first_name) values (1, 'owner@x.test', 'x', 'Olivia');
    insert into samples (user_id, submitter_name, submitter_email, item_name, category, description, report_code, status)
      select 1, 'Olivia', 'owner@x.test', 'Vase ' || i, 'other', 'A vase', 'V' || lpad(i::text, 7, '0'), 'completed'
      from generate_series(1, 1500) i;
    insert into report_elements (sample_id, element, percentage) select id, 'Gold', 50 from samples;
    insert into report_revisions (sample_id, report_code, revision, storage_key, sha256, byte_size, content)
      select id, report_code, 1, 'k' || id, repeat('a', 64), 1, '${content(1)}' from samples;
  `);
  const [count] = await client.rows(`select count(*)::int as n from report_public_faces`);
  expect(count).toEqual({ n: 1500 });
  const [one] = await client.rows(
    `select item_name, status, face, elements from report_public_faces where report_code = 'V0000777'`,
  );
  expect(one).toEqual({
    item_name: 'Vase 777',
    status: 'completed',
    face: face(1),
    elements: [{ element: 'Gold', percentage: 50, purity: null, quality: null }],
  });
  await client.close();
});
