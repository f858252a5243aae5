import { randomBytes } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEEP_PAGE_MESSAGE,
  MAX_PAGED_ROWS,
  SEARCH_TOO_LONG_MESSAGE,
  type WorkListCounts,
} from '../../../common/contracts/sample-search';
import type { SampleListItem } from '../../../common/contracts/samples';
import type { WorkListItem } from '../../../common/contracts/workflow';
import { addBusinessDays } from '../../../common/domain/turnaround';
import { displaySampleId } from '../../../common/domain/samples';
import { samples } from '../../db/schema';
import { insertSample } from '../../../tests/support/factories';
import { newReportCode } from '../reports/report-code';
import {
  call,
  createUser,
  dbKind,
  startTestApp,
  type TestApp,
  type TestUser,
} from '../../../tests/support/test-app';

let t: TestApp;
let admin: TestUser;
let staff: TestUser;
let otherStaff: TestUser;
let customer: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  [admin, staff, otherStaff, customer] = await Promise.all([
    createUser(t, { role: 'admin' }),
    createUser(t, { role: 'staff', firstName: 'Sam', lastName: 'Staff' }),
    createUser(t, { role: 'staff', firstName: 'Olga', lastName: 'Other' }),
    createUser(t, { role: 'user', firstName: 'Cora', lastName: 'Client' }),
  ]);
});
afterAll(async () => {
  await t?.close();
});

/** A word no other test's sample contains, so each test reads only its own rows. */
const marker = () => `zq${randomBytes(4).toString('hex')}`;

const ids = (body: unknown) => (body as { id: number }[]).map((s) => s.id);

async function lab(query: string, token = admin.token) {
  const res = await call(t, 'GET', `/api/admin/samples?${query}`, { token });
  return res;
}

describe('search: what q matches', () => {
  it('an id with or without the prefix, in any case, and ranks it first', async () => {
    const m = marker();
    const target = await insertSample(t.db, customer, { itemName: `Meissen figurine ${m}` });
    // Another sample whose text contains the target's number: found too, but after the exact id.
    const other = await insertSample(t.db, customer, { itemName: `Lot ${target.id}${target.id} ${m}` });
    for (const q of [
      displaySampleId(target.id),
      displaySampleId(target.id).toLowerCase(),
      `VAL-${target.id}`,
    ]) {
      const res = await lab(`q=${encodeURIComponent(q)}`);
      expect(res.status, q).toBe(200);
      expect(ids(res.body)[0], q).toBe(target.id);
    }
    const bare = await lab(`q=${target.id}`);
    expect(ids(bare.body)[0]).toBe(target.id);
    if (String(target.id).length >= 3) expect(ids(bare.body)).toContain(other.id);
    const padded = await lab(`q=${String(target.id).padStart(6, '0')}`);
    expect(ids(padded.body)[0]).toBe(target.id);
  });

  it('a bare number of seven digits or more is an id only; shorter numbers are also searched as text', async () => {
    const m = marker();
    const ledger = await insertSample(t.db, customer, { itemName: `Ledger 98765432 ${m}` });
    const coin = await insertSample(t.db, customer, { itemName: `Morgan dollar 1893 ${m}` });
    // Seven digits or more: no sample has that id here, and the text is not read.
    const long = await lab('q=98765432');
    expect(long.status).toBe(200);
    expect(ids(long.body)).not.toContain(ledger.id);
    expect(ids((await lab(`q=${String(ledger.id).padStart(7, '0')}`)).body)).toEqual([ledger.id]);
    // A year is a word of the item name.
    expect(ids((await lab('q=1893')).body)).toContain(coin.id);
    // The same number among other words is text.
    expect(ids((await lab(`q=${encodeURIComponent(`98765432 ${m}`)}`)).body)).toEqual([ledger.id]);
  });

  it('a report code in any case, ranked first; a partial code through the text', async () => {
    const m = marker();
    const code = newReportCode();
    const withCode = await insertSample(t.db, customer, { itemName: `Clock ${m}`, reportCode: code });
    await insertSample(t.db, customer, { itemName: `Clock ${m} second` });
    for (const q of [code, code.toLowerCase(), ` ${code.toLowerCase()} `]) {
      const res = await lab(`q=${encodeURIComponent(q)}`);
      expect(res.status).toBe(200);
      expect(ids(res.body)[0], q).toBe(withCode.id);
    }
    const partial = await lab(`q=${code.slice(0, 5).toLowerCase()}`);
    expect(ids(partial.body)).toContain(withCode.id);
  });

  it('partial words of the item in any order and case, every word required', async () => {
    const m = marker();
    const vase = await insertSample(t.db, customer, { itemName: `Meissen porcelain vase ${m}` });
    const plate = await insertSample(t.db, customer, { itemName: `Meissen plate ${m}` });
    const both = await lab(`q=${encodeURIComponent(`MEISS ${m}`)}`);
    expect(ids(both.body).sort()).toEqual([vase.id, plate.id].sort());
    const one = await lab(`q=${encodeURIComponent(`porcel ${m} meis`)}`);
    expect(ids(one.body)).toEqual([vase.id]);
    const none = await lab(`q=${encodeURIComponent(`porcelain plate ${m}`)}`);
    expect(ids(none.body)).toEqual([]);
    expect(none.headers.get('x-total-count')).toBe('0');
  });

  it('ignores accents both ways: the client written with accents, searched without, and the reverse', async () => {
    const m = marker();
    const owner = await createUser(t, { firstName: 'Élise', lastName: 'Dürer' });
    const accented = await insertSample(t.db, owner, {
      itemName: `Gilt mirror ${m}`,
      submitterName: 'Élise Dürer-Çelik',
    });
    const plain = await insertSample(t.db, customer, {
      itemName: `Cafe table ${m}`,
      clientName: 'Francois Lefevre',
      isRepresentative: true,
      representativeName: 'Agnès Moreau',
    });
    expect(ids((await lab(`q=${encodeURIComponent(`elise durer ${m}`)}`)).body)).toEqual([accented.id]);
    expect(ids((await lab(`q=${encodeURIComponent(`CELIK ${m}`)}`)).body)).toEqual([accented.id]);
    expect(ids((await lab(`q=${encodeURIComponent(`françois lefèvre ${m}`)}`)).body)).toEqual([plain.id]);
    expect(ids((await lab(`q=${encodeURIComponent(`agnes ${m}`)}`)).body)).toEqual([plain.id]);
    expect(ids((await lab(`q=${encodeURIComponent(`café ${m}`)}`)).body)).toEqual([plain.id]);
  });

  it('the client’s e-mail, whole or in part; LIKE wildcards are plain characters', async () => {
    const m = marker();
    const owner = await createUser(t, { email: `${m}.collector@estates.example` });
    const s = await insertSample(t.db, owner, { itemName: 'Bronze bust' });
    await insertSample(t.db, customer, { itemName: `Bronze ${m}` });
    expect(ids((await lab(`q=${encodeURIComponent(`${m}.collector@estates.example`)}`)).body)).toEqual([
      s.id,
    ]);
    expect(ids((await lab(`q=${encodeURIComponent(`${m}.COLL`)}`)).body)).toEqual([s.id]);
    expect(ids((await lab(`q=${encodeURIComponent(`${m}%`)}`)).body)).toEqual([]);
    expect(ids((await lab(`q=${encodeURIComponent(`${m}_collector`)}`)).body)).toEqual([]);
  });

  it('a whole e-mail address matches that address exactly (submitter or representative), any case; one no sample carries is searched as text', async () => {
    const m = marker();
    const owner = await createUser(t, { email: `a${m}@estates.example` });
    const longer = await createUser(t, { email: `xa${m}@estates.example` });
    const own = await insertSample(t.db, owner, { itemName: 'Gilt mirror' });
    const other = await insertSample(t.db, longer, { itemName: 'Gilt clock' });
    const represented = await insertSample(t.db, customer, {
      itemName: 'Gilt ewer',
      isRepresentative: true,
      representativeName: 'Rita Agent',
      representativeEmail: `A${m}@Estates.Example`,
    });
    // The whole address: the two samples that carry it, not the one whose address merely contains it.
    const exact = await lab(`q=${encodeURIComponent(`A${m.toUpperCase()}@ESTATES.EXAMPLE`)}`);
    expect(exact.status).toBe(200);
    expect(ids(exact.body).sort((a, b) => a - b)).toEqual([own.id, represented.id].sort((a, b) => a - b));
    expect(exact.headers.get('x-total-count')).toBe('2');
    // The same on the work list and in the export.
    const work = await call(t, 'GET', `/api/staff/samples?q=${encodeURIComponent(`a${m}@estates.example`)}`, {
      token: admin.token,
    });
    expect(ids(work.body).sort((a, b) => a - b)).toEqual([own.id, represented.id].sort((a, b) => a - b));
    const csv = await call(
      t,
      'GET',
      `/api/admin/samples.csv?q=${encodeURIComponent(`a${m}@estates.example`)}`,
      {
        token: admin.token,
      },
    );
    expect((parse(csv.text, { columns: true }) as unknown[]).length).toBe(2);
    // An address no sample carries whole, but part of longer ones: found through the text.
    const part = await lab(`q=${encodeURIComponent(`${m}@estates.example`)}`);
    expect(ids(part.body).sort((a, b) => a - b)).toEqual(
      [own.id, other.id, represented.id].sort((a, b) => a - b),
    );
  });

  it('a count over its time budget gives way to the estimate (PostgreSQL cancels it)', async () => {
    const { countWithin } = await import('./sample-search.queries');
    const slow = sql`select count(*)::int as n from (select pg_sleep(0.5)) s`;
    const started = Date.now();
    const n = await countWithin(t.db, slow, 20);
    if (dbKind() === 'postgres') {
      expect(n).toBeNull();
      expect(Date.now() - started).toBeLessThan(450);
    } else {
      // PGlite runs in this process and may not cancel its own statement; the count then completes.
      expect([null, 1]).toContain(n);
    }
    // The connection is usable afterwards, and a quick count is exact.
    expect(await countWithin(t.db, sql`select 3 as n`, 1_000)).toBe(3);
    const res = await lab('q=zzzz-nothing-here');
    expect(res.status).toBe(200);
  });

  it('words shorter than three letters alone match ids and codes only', async () => {
    const res = await lab('q=ab');
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([]);
  });

  it('a 10 KB query is refused with 400, never a 5xx, on both lists and the export', async () => {
    const long = 'a'.repeat(10 * 1024);
    for (const path of ['/api/admin/samples', '/api/staff/samples', '/api/admin/samples.csv']) {
      const res = await call(t, 'GET', `${path}?q=${long}`, { token: admin.token });
      expect(res.status, path).toBe(400);
      expect((res.body as { message: string }).message).toBe(SEARCH_TOO_LONG_MESSAGE);
    }
    const spaced = await lab(`q=${encodeURIComponent('é% _\\'.repeat(30))}`);
    expect(spaced.status).toBe(200);
  });
});

describe('filters, alone and with a search', () => {
  it('status (repeatable and comma-separated), assigned staff and unassigned', async () => {
    const m = marker();
    const a = await insertSample(t.db, customer, {
      itemName: `Desk ${m}`,
      status: 'analysis',
      assignedStaffId: staff.id,
    });
    const b = await insertSample(t.db, customer, {
      itemName: `Desk ${m}`,
      status: 'review',
      assignedStaffId: otherStaff.id,
    });
    const c = await insertSample(t.db, customer, { itemName: `Chair ${m}`, status: 'submitted' });
    const q = `q=${m}`;
    expect(ids((await lab(`${q}&status=analysis`)).body)).toEqual([a.id]);
    expect(ids((await lab(`${q}&status=analysis&status=review`)).body).sort()).toEqual([a.id, b.id].sort());
    expect(ids((await lab(`${q}&status=analysis,submitted`)).body).sort()).toEqual([a.id, c.id].sort());
    expect(ids((await lab(`${q}&assignedStaffId=${staff.id}`)).body)).toEqual([a.id]);
    expect(ids((await lab(`${q}&assignedStaffId=none`)).body)).toEqual([c.id]);
    expect(ids((await lab(`q=desk+${m}&status=review`)).body)).toEqual([b.id]);
    // Alone (no search): every row it returns has the property.
    const alone = await lab('status=review&pageSize=100');
    expect((alone.body as SampleListItem[]).every((s) => s.status === 'review')).toBe(true);
    expect(ids(alone.body)).toContain(b.id);
    const unassigned = await lab('assignedStaffId=none&pageSize=100');
    expect((unassigned.body as SampleListItem[]).every((s) => s.assignedStaffId === null)).toBe(true);
    expect(ids(unassigned.body)).toContain(c.id);
  });

  it('overdue: past the expected day and not completed; false selects the others', async () => {
    const m = marker();
    const old = new Date(Date.now() - 40 * 86_400_000);
    const late = await insertSample(t.db, customer, { itemName: `Urn ${m}`, submissionDate: old });
    const done = await insertSample(t.db, customer, {
      itemName: `Urn ${m}`,
      submissionDate: old,
      status: 'completed',
    });
    const fresh = await insertSample(t.db, customer, { itemName: `Urn ${m}` });
    const overdue = await lab(`q=${m}&overdue=true`);
    expect(ids(overdue.body)).toEqual([late.id]);
    expect((overdue.body as SampleListItem[])[0]?.overdue).toBe(true);
    expect(ids((await lab(`q=${m}&overdue=false`)).body).sort()).toEqual([done.id, fresh.id].sort());
    const alone = await lab('overdue=true&pageSize=100');
    expect((alone.body as SampleListItem[]).every((s) => s.overdue)).toBe(true);
    expect(ids(alone.body)).toContain(late.id);
  });

  it('from/to: submission days in UTC, both ends included', async () => {
    const m = marker();
    const at = (iso: string) =>
      insertSample(t.db, customer, { itemName: `Print ${m}`, submissionDate: new Date(iso) });
    const before = await at('2024-03-09T23:59:59Z');
    const first = await at('2024-03-10T00:00:00Z');
    const last = await at('2024-03-12T23:59:59Z');
    const after = await at('2024-03-13T00:00:00Z');
    expect(ids((await lab(`q=${m}&from=2024-03-10&to=2024-03-12`)).body).sort()).toEqual(
      [first.id, last.id].sort(),
    );
    expect(ids((await lab(`q=${m}&from=2024-03-13`)).body)).toEqual([after.id]);
    expect(ids((await lab(`q=${m}&to=2024-03-09`)).body)).toEqual([before.id]);
    const alone = await lab('from=2024-03-10&to=2024-03-12&pageSize=100');
    expect(ids(alone.body)).toEqual(expect.arrayContaining([first.id, last.id]));
    expect(ids(alone.body)).not.toContain(before.id);
  });

  it("custody: the item's custody state now (docs/product/custody.md), any of several", async () => {
    const m = marker();
    const waiting = await insertSample(t.db, customer, { itemName: `Globe ${m}` });
    const stored = await insertSample(t.db, customer, { itemName: `Globe stand ${m}` });
    const away = await insertSample(t.db, customer, { itemName: `Globe lamp ${m}` });
    await t.db.update(samples).set({ custodyState: 'in-storage' }).where(eq(samples.id, stored.id));
    await t.db.update(samples).set({ custodyState: 'returned' }).where(eq(samples.id, away.id));
    expect(ids((await lab(`q=${m}&custody=awaiting-arrival`)).body)).toEqual([waiting.id]);
    expect(ids((await lab(`q=${m}&custody=in-storage`)).body)).toEqual([stored.id]);
    expect(ids((await lab(`q=${m}&custody=in-storage&custody=returned`)).body).sort()).toEqual(
      [stored.id, away.id].sort(),
    );
  });
});

describe('sorting and paging', () => {
  it('each sort orders the rows both ways, ties by id', async () => {
    const m = marker();
    const day = (n: number) => new Date(Date.UTC(2025, 0, n, 12));
    const a = await insertSample(t.db, customer, {
      itemName: `Bowl ${m}`,
      submissionDate: day(6),
      lastUpdated: day(20),
      urgencyLevel: 'urgent',
    });
    const b = await insertSample(t.db, customer, {
      itemName: `Bowl ${m}`,
      submissionDate: day(2),
      lastUpdated: day(30),
    });
    const c = await insertSample(t.db, customer, {
      itemName: `Bowl ${m}`,
      submissionDate: day(9),
      lastUpdated: day(10),
    });
    // Expected: a = 6 Jan + 5 business days = 13 Jan; b = 2 Jan + 10 = 16 Jan; c = 9 Jan + 10 = 23 Jan.
    const order = async (sort: string) => ids((await lab(`q=${m}&sort=${sort}`)).body);
    expect(await order('submitted')).toEqual([b.id, a.id, c.id]);
    expect(await order('-submitted')).toEqual([c.id, a.id, b.id]);
    expect(await order('expected')).toEqual([a.id, b.id, c.id]);
    expect(await order('-expected')).toEqual([c.id, b.id, a.id]);
    expect(await order('lastUpdated')).toEqual([c.id, a.id, b.id]);
    expect(await order('-lastUpdated')).toEqual([b.id, a.id, c.id]);
    const rows = (await lab(`q=${m}&sort=expected`)).body as SampleListItem[];
    expect(rows.map((r) => r.expectedCompletionDate)).toEqual(['2025-01-13', '2025-01-16', '2025-01-23']);
  });

  it('pages without overlap or gap, with X-Total-Count, for a search and a sort', async () => {
    const m = marker();
    const made: number[] = [];
    for (let i = 0; i < 7; i++)
      made.push((await insertSample(t.db, customer, { itemName: `Coin ${m} ${i}` })).id);
    for (const sort of ['', '&sort=-lastUpdated', '&sort=submitted']) {
      const seen: number[] = [];
      for (let page = 1; page <= 4; page++) {
        const res = await lab(`q=${m}&pageSize=2&page=${page}${sort}`);
        expect(res.headers.get('x-total-count')).toBe('7');
        seen.push(...ids(res.body));
      }
      expect(seen).toHaveLength(7);
      expect([...seen].sort()).toEqual([...made].sort());
    }
  });

  it('a filtered list pages through its first 10,000 rows only', async () => {
    const res = await lab(`status=review&pageSize=10&page=${MAX_PAGED_ROWS / 10 + 1}`);
    expect(res.status).toBe(400);
    expect((res.body as { message: string }).message).toBe(DEEP_PAGE_MESSAGE);
    const last = await lab(`status=review&pageSize=10&page=${MAX_PAGED_ROWS / 10}`);
    expect(last.status).toBe(200);
  });
});

describe('staff see only what they may see', () => {
  it('the work list searches only the caller’s assigned samples; an admin’s, every sample', async () => {
    const m = marker();
    const mine = await insertSample(t.db, customer, { itemName: `Ewer ${m}`, assignedStaffId: staff.id });
    const theirs = await insertSample(t.db, customer, {
      itemName: `Ewer ${m}`,
      assignedStaffId: otherStaff.id,
    });
    const loose = await insertSample(t.db, customer, { itemName: `Ewer ${m}` });
    const work = (query: string, token: string) => call(t, 'GET', `/api/staff/samples?${query}`, { token });
    const own = await work(`q=${m}`, staff.token);
    expect(ids(own.body)).toEqual([mine.id]);
    expect(own.headers.get('x-total-count')).toBe('1');
    expect(ids((await work(`q=${m}&assignedStaffId=${otherStaff.id}`, staff.token)).body)).toEqual([]);
    expect(ids((await work(`q=${m}&assignedStaffId=none`, staff.token)).body)).toEqual([]);
    expect(ids((await work(`q=${theirs.id}`, staff.token)).body)).not.toContain(theirs.id);
    const everything = await work(`q=${m}`, admin.token);
    expect(ids(everything.body).sort()).toEqual([mine.id, theirs.id, loose.id].sort());
    expect((everything.body as WorkListItem[]).every((r) => !('submitterEmail' in r))).toBe(true);
    // The lab list shows staff every sample (docs/product/roles-and-access.md).
    expect(ids((await lab(`q=${m}`, staff.token)).body).sort()).toEqual(
      [mine.id, theirs.id, loose.id].sort(),
    );
    const refused = await call(t, 'GET', `/api/admin/samples?q=${m}`, { token: customer.token });
    expect(refused.status).toBe(403);
  });

  it('counters: the caller’s samples by status, counted by the server', async () => {
    const counter = await createUser(t, { role: 'staff' });
    const statuses = ['submitted', 'submitted', 'analysis', 'completed', 'in-progress'] as const;
    for (const status of statuses)
      await insertSample(t.db, customer, { status, assignedStaffId: counter.id });
    await insertSample(t.db, customer, {
      status: 'review',
      assignedStaffId: counter.id,
      submissionDate: new Date(Date.now() - 60 * 86_400_000),
    });
    const res = await call(t, 'GET', '/api/staff/samples/counts', { token: counter.token });
    expect(res.status).toBe(200);
    const counts = res.body as WorkListCounts;
    expect(counts.total).toBe(6);
    expect(counts.overdue).toBe(1);
    const by = Object.fromEntries(counts.byStatus.map((s) => [s.status, s.count]));
    expect(by).toEqual({
      submitted: 2,
      'in-progress': 1,
      analysis: 1,
      review: 1,
      completed: 1,
      'on-hold': 0,
    });
    const everyone = (await call(t, 'GET', '/api/staff/samples/counts', { token: admin.token }))
      .body as WorkListCounts;
    const counted = await t.db.execute(sql`select count(*)::int as n from ${samples}`);
    const [{ n }] = (counted as unknown as { rows: [{ n: number }] }).rows;
    expect(everyone.total).toBe(n);
    expect((await call(t, 'GET', '/api/staff/samples/counts', { token: customer.token })).status).toBe(403);
  });
});

describe('bad parameters answer 400', () => {
  it.each([
    'status=lost',
    'sort=price',
    'sort=-id',
    'assignedStaffId=abc',
    'assignedStaffId=0',
    'overdue=yes',
    'from=2024-13-01',
    'from=2024-02-30',
    'to=yesterday',
    'from=2024-03-02&to=2024-03-01',
    'custody=lost',
    'pageSize=101',
    'page=0',
  ])('%s', async (query) => {
    const res = await lab(query);
    expect(res.status).toBe(400);
    expect((res.body as { errors: unknown[] }).errors.length).toBeGreaterThan(0);
  });
});

describe('GET /api/admin/samples.csv', () => {
  it('streams what the filters select, quoting commas, quotes and new lines', async () => {
    const m = marker();
    const tricky = await insertSample(t.db, customer, {
      itemName: `Chest, "Biedermeier"\nwith drawers ${m}`,
      submitterName: 'Renée "Rae" O’Brien, Esq.',
      status: 'analysis',
      assignedStaffId: staff.id,
    });
    const formula = await insertSample(t.db, customer, {
      itemName: `=HYPERLINK("x") ${m}`,
      status: 'analysis',
    });
    await insertSample(t.db, customer, { itemName: `Chest ${m}`, status: 'submitted' });
    const res = await call(t, 'GET', `/api/admin/samples.csv?q=${m}&status=analysis&sort=submitted`, {
      token: staff.token,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="samples-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const rows = parse(res.text, { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => r.ID)).toEqual([displaySampleId(tricky.id), displaySampleId(formula.id)]);
    expect(rows[0]).toMatchObject({
      Item: `Chest, "Biedermeier"\nwith drawers ${m}`,
      Client: 'Cora Client',
      'Client e-mail': customer.email,
      'Assigned staff': 'Sam Staff',
      Status: 'analysis',
      Overdue: 'no',
    });
    expect(res.text).toContain(`"Chest, ""Biedermeier""\nwith drawers ${m}"`);
    expect(rows[1]?.Item).toBe(`'=HYPERLINK("x") ${m}`);
  });

  it('fills every column from the sample: the label for a representative, the dates, the expected day, the code', async () => {
    const m = marker();
    const code = newReportCode();
    const made = await insertSample(t.db, customer, {
      itemName: `Longcase clock ${m}`,
      status: 'completed',
      representativeName: 'Rita Rep',
      clientName: 'Estate of A. Owner',
      assignedStaffId: staff.id,
      reportCode: code,
    });
    const plain = await insertSample(t.db, customer, { itemName: `Bracket clock ${m}` });
    const res = await call(t, 'GET', `/api/admin/samples.csv?q=${m}&sort=submitted`, { token: staff.token });
    expect(res.status).toBe(200);
    const rows = parse(res.text, { columns: true }) as Record<string, string>[];
    expect(rows).toEqual([
      {
        ID: displaySampleId(made.id),
        Item: `Longcase clock ${m}`,
        Category: made.category,
        Status: 'completed',
        Client: 'Rita Rep (for Estate of A. Owner)',
        'Client e-mail': customer.email,
        'Assigned staff': 'Sam Staff',
        Submitted: made.submissionDate.toISOString(),
        'Expected completion': made.expectedCompletion,
        Overdue: 'no',
        'Last updated': made.lastUpdated.toISOString(),
        'Report code': code,
      },
      {
        ID: displaySampleId(plain.id),
        Item: `Bracket clock ${m}`,
        Category: plain.category,
        Status: 'submitted',
        Client: 'Cora Client',
        'Client e-mail': customer.email,
        'Assigned staff': '',
        Submitted: plain.submissionDate.toISOString(),
        'Expected completion': plain.expectedCompletion,
        Overdue: 'no',
        'Last updated': plain.lastUpdated.toISOString(),
        'Report code': '',
      },
    ]);
  });

  it('marks overdue the unfinished samples past their expected day, as the list does', async () => {
    const m = marker();
    const old = new Date('2020-03-02T09:00:00Z');
    const late = await insertSample(t.db, customer, {
      itemName: `Late vase ${m}`,
      status: 'analysis',
      submissionDate: old,
    });
    const done = await insertSample(t.db, customer, {
      itemName: `Done vase ${m}`,
      status: 'completed',
      submissionDate: old,
    });
    const fresh = await insertSample(t.db, customer, { itemName: `Fresh vase ${m}`, status: 'analysis' });
    const res = await call(t, 'GET', `/api/admin/samples.csv?q=${m}&sort=submitted`, { token: admin.token });
    const rows = parse(res.text, { columns: true }) as Record<string, string>[];
    const overdue = Object.fromEntries(rows.map((r) => [r.ID, r.Overdue]));
    expect(overdue).toEqual({
      [displaySampleId(late.id)]: 'yes',
      [displaySampleId(done.id)]: 'no',
      [displaySampleId(fresh.id)]: 'no',
    });
    // The same flag as the lab list's.
    const listed = (await lab(`q=${m}`)).body as SampleListItem[];
    expect(Object.fromEntries(listed.map((s) => [displaySampleId(s.id), s.overdue ? 'yes' : 'no']))).toEqual(
      overdue,
    );
  });

  it('reads every row past its batches, in order, without a page limit', async () => {
    const m = marker();
    const made: number[] = [];
    for (let i = 0; i < 23; i++)
      made.push((await insertSample(t.db, customer, { itemName: `Spoon ${m}` })).id);
    const { exportBatches } = await import('./sample-search.queries');
    const { EXPORT_AT } = await import('./workflow.queries');
    const seen: number[] = [];
    const batches = exportBatches(t.database, { q: m, sort: '-lastUpdated' }, { assignedTo: null }, 5);
    let statements = 0;
    while (await batches.next((r) => seen.push(Number(r[EXPORT_AT.id])))) statements++;
    expect(seen).toEqual([...made].reverse());
    // 23 rows, 5 a batch: 5 batches with rows (the last one short, so no statement after it).
    expect(statements).toBe(5);
    expect(await batches.next(() => {})).toBe(false);
    const res = await call(t, 'GET', `/api/admin/samples.csv?q=${m}`, { token: admin.token });
    expect((parse(res.text, { columns: true }) as unknown[]).length).toBe(23);
  });

  it('refuses customers and visitors', async () => {
    expect((await call(t, 'GET', '/api/admin/samples.csv', { token: customer.token })).status).toBe(403);
    expect((await call(t, 'GET', '/api/admin/samples.csv')).status).toBe(401);
  });
});

describe('the expected completion day kept by the database', () => {
  it('equals the turnaround rule for every weekday, time of day and urgency', async () => {
    const starts: string[] = [];
    for (let d = 0; d < 21; d++)
      for (const time of ['00:00:00', '12:30:00', '23:59:59'])
        starts.push(new Date(Date.UTC(2026, 0, 1 + d)).toISOString().slice(0, 10) + `T${time}Z`);
    for (const urgency of ['standard', 'urgent']) {
      const result = await t.db.execute(sql`
        select s as start, vl_expected_completion(s::timestamptz, null, null, ${urgency})::text as expected
        from unnest(${sql.raw(`array[${starts.map((s) => `'${s}'`).join(',')}]`)}::text[]) s`);
      for (const r of (result as unknown as { rows: { start: string; expected: string }[] }).rows)
        expect(r.expected, `${r.start} ${urgency}`).toBe(
          addBusinessDays(new Date(r.start), urgency === 'urgent' ? 5 : 10),
        );
    }
  });
});
