import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { users } from './schema';
import {
  compactJson,
  decodeTimestamp,
  decodeTimestampOrNull,
  runTextStatement,
  textParam,
  textStatement,
} from './text-rows';

const driverIso = (text: string) =>
  (pg.types.getTypeParser(1184, 'text') as (t: string) => Date)(text).toISOString();

describe('decodeTimestamp', () => {
  it("rewrites PostgreSQL's UTC text exactly as the driver's Date would format it", () => {
    const texts = [
      '2026-11-23 08:13:00.123456+00',
      '2026-11-23 08:13:00.123999+00',
      '2026-11-23 08:13:00.1+00',
      '2026-11-23 08:13:00.12+00',
      '2026-11-23 08:13:00.123+00',
      '2026-11-23 08:13:00+00',
      '2024-02-29 23:59:59.999999+00',
      '1999-12-31 00:00:00.000001+00',
    ];
    for (const text of texts) {
      expect(decodeTimestamp(text), text).toBe(driverIso(text));
      expect(decodeTimestamp(text), text).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
  });

  it('reads any other session time zone or form through the driver', () => {
    expect(decodeTimestamp('2026-11-23 09:13:00.5+01')).toBe('2026-11-23T08:13:00.500Z');
    expect(decodeTimestamp('2026-11-23 13:43:00+05:30')).toBe('2026-11-23T08:13:00.000Z');
    expect(decodeTimestamp('2026-11-22 21:13:00.25-11')).toBe('2026-11-23T08:13:00.250Z');
    expect(decodeTimestamp('0044-03-15 12:00:00+00 BC')).toBe(driverIso('0044-03-15 12:00:00+00 BC'));
  });

  it('keeps a missing time missing', () => {
    expect(decodeTimestampOrNull(null)).toBeNull();
    expect(decodeTimestampOrNull('2026-11-23 08:13:00+00')).toBe('2026-11-23T08:13:00.000Z');
  });
});

describe('textParam', () => {
  it('sends numbers and text as text and SQL null as null', () => {
    expect(textParam(1)).toBe('1');
    expect(textParam('ABC')).toBe('ABC');
    expect(textParam(null)).toBeNull();
    expect(textParam(undefined)).toBeNull();
  });
});

describe('compactJson', () => {
  it("writes jsonb's text as JSON.stringify writes the value the driver parses from it", () => {
    const cases: [string, string][] = [
      [
        '{"b": 1, "10": -2, "aa": [1, -2.5, null, true], "z": {"q": "x, \\"y\\"\\nz"}}',
        '{"10":-2,"b":1,"aa":[1,-2.5,null,true],"z":{"q":"x, \\"y\\"\\nz"}}',
      ],
      ['{}', '{}'],
      ['[1, {"a": 2}]', '[1,{"a":2}]'],
      ['-5', '-5'],
      ['"=text"', '"=text"'],
      ['{"big": 12345678901234567890, "e": 1e21}', '{"big":12345678901234567000,"e":1e+21}'],
      ['{"u": "é😀\u2028"}', '{"u":"é😀\u2028"}'],
    ];
    for (const [text, json] of cases) expect(compactJson(text)).toBe(json);
  });

  it('keeps SQL null and JSON null empty', () => {
    expect(compactJson(null)).toBeNull();
    expect(compactJson('null')).toBeNull();
  });
});

describe('textStatement and runTextStatement', () => {
  const calls: { name: string; text: string; values: unknown[] }[] = [];
  const database = {
    async queryTextRows(name: string, text: string, values: unknown[]) {
      calls.push({ name, text, values });
      return [];
    },
  };

  it('builds the text once and fills the placeholders per call, through the column encoders', async () => {
    const db = drizzle.mock({ schema: { users } });
    const statement = textStatement(
      'test_insert',
      db
        .insert(users)
        .values({
          email: sql.placeholder('email'),
          passwordHash: sql.placeholder('hash'),
          isActive: sql.placeholder('active'),
          createdAt: sql.placeholder('at'),
        } as never)
        .returning({ id: users.id }),
    );
    const at = new Date('2026-11-27T10:00:00.123Z');
    await runTextStatement(database, statement, { email: 'a@b.c', hash: 'h', active: false, at });
    await runTextStatement(database, statement, { email: 'd@e.f', hash: 'h2', active: true, at });
    expect(calls.map((c) => c.name)).toEqual(['test_insert', 'test_insert']);
    expect(calls[0]?.text).toBe(calls[1]?.text);
    expect(calls[0]?.values).toContain('a@b.c');
    expect(calls[0]?.values).toContain('false');
    expect(calls[0]?.values).toContain(at.toISOString());
    expect(calls[1]?.values).toContain('true');
    expect(calls[0]?.values.filter((v) => v === null)).toEqual([]);
  });

  it('refuses a call that leaves a placeholder without a value', () => {
    const statement = textStatement('test_select', sql`select ${sql.placeholder('id')}::int`);
    expect(() => runTextStatement(database, statement, {})).toThrow(/placeholder "id"/);
  });
});
