import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKind, freshDatabase } from '../../tests/support/test-app';
import type { Database } from './client';
import { decodeTimestamp } from './text-rows';

// `queryTextRows`, the driver path of public verification (server/db/text-rows.ts): on both databases
// every column arrives as PostgreSQL's text, the statement can be run again and again under its
// name, and a failing statement rejects without breaking the connections that follow.

let database: Database;
let drop: () => Promise<void>;
beforeAll(async () => {
  ({ database, drop } = await freshDatabase());
});
afterAll(async () => drop());

const TYPES_SQL = `select $1::int as n, $2::text as t, timestamptz '2026-11-23 08:13:00.123456+00' as at,
  json_build_object('a', 1, 'b', 'x', 'c', null) as j, jsonb_build_object('k', true) as jb, true as yes,
  12.50::numeric as amount, null::text as nothing, array[1, 2] as list, now() - now() as span`;

describe(`queryTextRows (${dbKind()})`, () => {
  it("answers each column as PostgreSQL's text, whatever its type", async () => {
    const rows = await database.queryTextRows('text_rows_types', TYPES_SQL, [42, 'hello']);
    expect(rows).toHaveLength(1);
    const [n, t, at, j, jb, yes, amount, nothing, list, span] = rows[0] ?? [];
    expect(n).toBe('42');
    expect(t).toBe('hello');
    // The time as the session's text; decoded, exactly the stored instant.
    expect(typeof at).toBe('string');
    expect(decodeTimestamp(at as string)).toBe('2026-11-23T08:13:00.123Z');
    expect(JSON.parse(j as string)).toEqual({ a: 1, b: 'x', c: null });
    expect(JSON.parse(jb as string)).toEqual({ k: true });
    expect(yes).toBe('t');
    expect(amount).toBe('12.50');
    expect(nothing).toBeNull();
    expect(list).toBe('{1,2}');
    expect(span).toBe('00:00:00');
  });

  it('runs the same named statement many times, concurrently, each with its own parameters', async () => {
    const text = 'select $1::int * 2, $2::text';
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => database.queryTextRows('text_rows_double', text, [i, `v${i}`])),
    );
    answers.forEach((rows, i) => expect(rows).toEqual([[String(i * 2), `v${i}`]]));
    // No row is an empty list, several rows come in order.
    expect(await database.queryTextRows('text_rows_none', 'select 1 where false', [])).toEqual([]);
    expect(
      await database.queryTextRows('text_rows_series', 'select g from generate_series(1, $1::int) g', [3]),
    ).toEqual([['1'], ['2'], ['3']]);
  });

  it('rejects a failing statement with its error and keeps serving the next ones', async () => {
    const text = 'select 10 / $1::int';
    await expect(database.queryTextRows('text_rows_divide', text, [0])).rejects.toThrow(/division by zero/);
    expect(await database.queryTextRows('text_rows_divide', text, [5])).toEqual([['2']]);
    await expect(database.queryTextRows('text_rows_bad', 'selec 1', [])).rejects.toThrow(/syntax error/);
    expect(await database.queryTextRows('text_rows_after', 'select 1', [])).toEqual([['1']]);
  });

  it('refuses a second statement under a name already prepared on PostgreSQL, as the driver does', async () => {
    await database.queryTextRows('text_rows_once', 'select 1', []);
    const second = database.queryTextRows('text_rows_once', 'select 2', []);
    // PGlite runs each statement unnamed: the name is only PostgreSQL's prepared statement.
    if (dbKind() === 'postgres') await expect(second).rejects.toThrow(/Prepared statements must be unique/);
    else expect(await second).toEqual([['2']]);
    expect(await database.queryTextRows('text_rows_once', 'select 1', [])).toEqual([['1']]);
  });
});

// `eachTextRow`, the exports' path (server/db/batches.ts): the same text, each row handed over as it
// arrives; the unnamed statement, so any text may follow any other.
describe(`eachTextRow (${dbKind()})`, () => {
  const each = async (sql: string, params: unknown[]) => {
    const rows: (string | null)[][] = [];
    await database.eachTextRow({ sql, params }, (row) => rows.push(row));
    return rows;
  };

  it("hands over every row in order, each column as PostgreSQL's text, with drizzle's parameters", async () => {
    const [row] = await each(TYPES_SQL, [42, 'hello']);
    expect(row?.slice(0, 2)).toEqual(['42', 'hello']);
    expect(decodeTimestamp(row?.[2] as string)).toBe('2026-11-23T08:13:00.123Z');
    expect(row?.slice(5)).toEqual(['t', '12.50', null, '{1,2}', '00:00:00']);
    // A Date parameter is sent as its instant; a series of thousands of rows arrives whole and in order.
    const at = new Date('2026-11-23T08:13:00.123Z');
    expect(
      await each('select $1::timestamptz = $2::timestamptz', [at, '2026-11-23 08:13:00.123+00']),
    ).toEqual([['t']]);
    const series = await each('select g from generate_series(1, $1::int) g', [5000]);
    expect(series.map((r) => Number(r[0]))).toEqual(Array.from({ length: 5000 }, (_, i) => i + 1));
    expect(await each('select 1 where false', [])).toEqual([]);
    // Unnamed: a different text each time, with no name to collide.
    expect(await each('select $1::int + 1', [1])).toEqual([['2']]);
    expect(await each('select $1::text', ['x'])).toEqual([['x']]);
  });

  it("rejects with the statement's error, or with the first error the row handler threw, and serves the next ones", async () => {
    await expect(each('select 10 / $1::int', [0])).rejects.toThrow(/division by zero/);
    let handed = 0;
    const failing = database.eachTextRow(
      { sql: 'select g from generate_series(1, 100) g', params: [] },
      () => {
        handed++;
        if (handed >= 3) throw new Error(`row handler failed at ${handed}`);
      },
    );
    await expect(failing).rejects.toThrow('row handler failed at 3');
    // No row is handed over after the failure (on PostgreSQL the statement itself runs to its end).
    expect(handed).toBe(3);
    expect(await each('select $1::int * 3', [7])).toEqual([['21']]);
  });
});
