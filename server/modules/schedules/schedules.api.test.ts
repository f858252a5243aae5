import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CollectionDetail } from '../../../common/contracts/collections';
import type { ScheduleSummary, ScheduleVerification } from '../../../common/contracts/schedules';
import { auditEvents, schedules } from '../../db/schema';
import { insertSample, valuationReport } from '../../../tests/support/factories';
import { PROGRAMS, requirePrograms } from '../../../tests/support/programs';
import { leakCheckText } from '../../../tests/support/http';
import { call, createUser, startTestApp, type TestApp, type TestUser } from '../../../tests/support/test-app';

// Schedules of collections (docs/product/schedules.md): staff or an admin issue one only when every
// item has an issued, not withdrawn report; the PDF lists each item with its value and the totals
// per currency and per category (pdftotext) and is signed (pdfsig) and tagged (pdfinfo); the owner
// downloads it; the public verification and the credential list items and report codes, never a
// value. On both databases.

let t: TestApp;
let owner: TestUser;
let other: TestUser;
let staff: TestUser;
let admin: TestUser;
const work = mkdtempSync(join(tmpdir(), 'vl-schedule-'));
const hasPoppler = requirePrograms(
  [PROGRAMS.pdfsig, PROGRAMS.pdfinfo, PROGRAMS.pdftotext],
  'schedule PDF text and signature checks',
);

function run(bin: string, args: string[]): string {
  const r = spawnSync(bin, args, { encoding: 'utf8' });
  if (r.error) throw r.error;
  return `${r.stdout}${r.stderr}`;
}
const save = (name: string, bytes: Buffer) => {
  const file = join(work, name);
  writeFileSync(file, bytes);
  return file;
};

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMITS: 'off' }, { runJobs: false });
  [owner, other, staff, admin] = await Promise.all([
    createUser(t, { firstName: 'Edith', lastName: 'Crawley' }),
    createUser(t),
    createUser(t, { role: 'staff', firstName: 'Sam', lastName: 'Sorter' }),
    createUser(t, { role: 'admin' }),
  ]);
});
afterAll(async () => {
  await t?.close();
  rmSync(work, { recursive: true, force: true });
});

async function newCollection(items: { name: string; category: string }[]) {
  const res = await call(t, 'POST', '/api/collections', {
    token: owner.token,
    json: { name: 'Estate of Violet Crawley', purpose: 'insurance' },
  });
  expect(res.status, res.text).toBe(201);
  const collection = res.body as CollectionDetail;
  const ids: number[] = [];
  for (const item of items)
    ids.push(
      (
        await insertSample(t.db, owner, {
          itemName: item.name,
          category: item.category,
          status: 'analysis',
          assignedStaffId: staff.id,
        })
      ).id,
    );
  const added = await call(t, 'POST', `/api/collections/${collection.id}/samples`, {
    token: owner.token,
    json: { sampleIds: ids },
  });
  expect(added.status, added.text).toBe(200);
  return { id: collection.id, ids };
}

/** Issues the sample's report through the staff endpoint with a valuation (major units). */
async function issueValued(sampleId: number, low: number | undefined, high: number, currency: string) {
  const base = valuationReport();
  const res = await call(t, 'POST', `/api/staff/samples/${sampleId}/report`, {
    token: staff.token,
    json: {
      ...base,
      valuation: { ...base.valuation, low, high, currency },
    },
  });
  expect(res.status, res.text).toBe(200);
  return (res.body as { reportCode: string }).reportCode;
}

const schedule = (id: number, as: TestUser) =>
  call(t, 'POST', `/api/staff/collections/${id}/schedule`, { token: as.token });

describe('issuing a schedule', () => {
  it('is refused (409, naming the items) until every item has an issued report, and for an empty collection', async () => {
    const empty = await call(t, 'POST', '/api/collections', {
      token: owner.token,
      json: { name: 'Nothing yet', purpose: 'insurance' },
    });
    const none = await schedule((empty.body as CollectionDetail).id, staff);
    expect(none.status).toBe(409);
    expect(none.body).toEqual({ message: 'This collection has no items yet: a schedule lists at least one' });

    const c = await newCollection([
      { name: 'Bracket clock', category: 'jewelry-watches' },
      { name: 'Silver salver', category: 'furniture-decorative' },
    ]);
    await issueValued(c.ids[0] as number, undefined, 1200, 'GBP');
    const refused = await schedule(c.id, staff);
    expect(refused.status).toBe(409);
    expect((refused.body as { message: string }).message).toBe(
      `A schedule needs an issued report for every item of the collection. Still without one: VAL-${String(c.ids[1]).padStart(4, '0')}`,
    );
    // Nothing half-written: no schedule row, no audit event.
    expect(await t.db.select().from(schedules).where(eq(schedules.collectionId, c.id))).toEqual([]);

    // A withdrawn report counts as none.
    const code = await issueValued(c.ids[1] as number, undefined, 300, 'GBP');
    const revoke = await call(t, 'POST', `/api/admin/reports/${code}/revoke`, {
      token: admin.token,
      json: { reason: 'Wrong item photographed' },
    });
    expect(revoke.status, revoke.text).toBe(200);
    expect((await schedule(c.id, staff)).status).toBe(409);
  });

  it('is for staff and admins only; another customer’s or an unknown collection is 404', async () => {
    const c = await newCollection([{ name: 'Carriage clock', category: 'jewelry-watches' }]);
    await issueValued(c.ids[0] as number, undefined, 800, 'EUR');
    expect((await schedule(c.id, owner)).status).toBe(403);
    expect((await schedule(c.id, other)).status).toBe(403);
    expect((await schedule(999_999, staff)).status).toBe(404);
    expect((await call(t, 'POST', `/api/staff/collections/${c.id}/schedule`)).status).toBe(401);
    const ok = await schedule(c.id, admin);
    expect(ok.status, ok.text).toBe(200);
    expect((await call(t, 'GET', `/api/collections/${c.id}/schedule`, { token: other.token })).status).toBe(
      404,
    );
    expect(
      (await call(t, 'GET', `/api/collections/${c.id}/schedule/pdf`, { token: other.token })).status,
    ).toBe(404);
  });
});

describe('the issued schedule', () => {
  let c: { id: number; ids: number[] };
  let codes: string[];
  let scheduleCode: string;
  let pdf: Buffer;

  beforeAll(async () => {
    c = await newCollection([
      { name: 'Georgian tea service', category: 'furniture-decorative' },
      { name: 'Longcase clock', category: 'jewelry-watches' },
      { name: 'Mantel clock', category: 'jewelry-watches' },
    ]);
    codes = [
      await issueValued(c.ids[0] as number, 12_000, 18_000, 'GBP'),
      await issueValued(c.ids[1] as number, undefined, 9_500.5, 'GBP'),
      await issueValued(c.ids[2] as number, undefined, 4_000, 'USD'),
    ];
    const res = await schedule(c.id, staff);
    expect(res.status, res.text).toBe(200);
    const body = res.body as { scheduleCode: string; itemCount: number; issuedAt: string };
    expect(body.scheduleCode).toMatch(/^[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{8}$/);
    expect(body.itemCount).toBe(3);
    scheduleCode = body.scheduleCode;
    const download = await call(t, 'GET', `/api/collections/${c.id}/schedule/pdf`, { token: owner.token });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    expect(download.headers.get('content-disposition')).toBe(
      `attachment; filename="Schedule-${scheduleCode}.pdf"`,
    );
    pdf = download.buffer as Buffer;
  });

  it('records its audit event with the items and report codes, in the same transaction', async () => {
    const [row] = await t.db.select().from(schedules).where(eq(schedules.code, scheduleCode));
    const events = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'schedule.issued'), eq(auditEvents.subjectId, String(c.id))));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorId: staff.id, subjectType: 'collection' });
    expect(events[0]?.after).toMatchObject({ scheduleCode, pdfSha256: row?.pdfSha256 });
  });

  it('is summarised for the owner, staff and admins, with links to its PDF and its verification', async () => {
    for (const as of [owner, staff, admin]) {
      const res = await call(t, 'GET', `/api/collections/${c.id}/schedule`, { token: as.token });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        scheduleCode,
        itemCount: 3,
        collectionId: c.id,
        pdfUrl: `/api/collections/${c.id}/schedule/pdf`,
        verifyUrl: `${t.app.deps.config.publicUrl}/verify-schedule?code=${scheduleCode}`,
      } satisfies Partial<ScheduleSummary>);
    }
  });

  it.skipIf(!hasPoppler)(
    'lists each item with its report code, value type and value, and the totals (pdftotext)',
    () => {
      const text = run('pdftotext', ['-layout', save('schedule.pdf', pdf), '-']);
      expect(text).toContain('Schedule of Valuations');
      expect(text).toContain(scheduleCode);
      expect(text).toContain('Estate of Violet Crawley');
      for (const [i, id] of c.ids.entries()) {
        expect(text).toContain(`VAL-${String(id).padStart(4, '0')}`);
        expect(text).toContain(codes[i] as string);
      }
      expect(text).toContain('Georgian tea service');
      // The value type wraps within its column: "Insurance" on the row, "replacement value" below.
      expect(text).toMatch(/Insurance[\s\S]{0,300}replacement[\s\S]{0,300}value/);
      expect(text).toContain('£12,000.00 – £18,000.00');
      expect(text).toContain('£9,500.50');
      expect(text).toContain('US$4,000.00');
      // Per currency: GBP 21,500.50 – 27,500.50 over two items; USD alone.
      expect(text).toMatch(/GBP\s+2\s+£21,500\.50 – £27,500\.50/);
      expect(text).toMatch(/USD\s+1\s+US\$4,000\.00/);
      // Per category within a currency: the two clocks are in different currencies.
      expect(text).toMatch(/Jewelry & Watches[^\n]*GBP\s+1\s+£9,500\.50/);
      expect(text).toMatch(/Jewelry & Watches[^\n]*USD\s+1\s+US\$4,000\.00/);
    },
  );

  it.skipIf(!hasPoppler)('is signed (pdfsig: valid; a changed byte: not) and tagged (pdfinfo)', () => {
    const file = save('signed-schedule.pdf', pdf);
    const out = run('pdfsig', [file]);
    expect(out).toContain('Signature is Valid');
    expect(out).toContain('Total document signed');
    expect(run('pdfinfo', [file])).toMatch(/Tagged:\s+yes/);
    const changed = Buffer.from(pdf);
    const at = changed.indexOf(Buffer.from('Schedule of Valuations'));
    changed[at] = 's'.charCodeAt(0);
    expect(run('pdfsig', [save('changed-schedule.pdf', changed)])).not.toContain('Signature is Valid');
  });

  it('verifies publicly with its items and report codes, never a value; unknown codes are 404', async () => {
    const res = await call(t, 'GET', `/api/schedules/verify/${scheduleCode.toLowerCase()}%20`);
    expect(res.status, res.text).toBe(200);
    const body = res.body as ScheduleVerification;
    expect(body).toMatchObject({ scheduleCode, itemCount: 3, superseded: null });
    expect(body.items.map((i) => [i.displayId, i.reportCode, i.reportStatus])).toEqual(
      c.ids.map((id, i) => [`VAL-${String(id).padStart(4, '0')}`, codes[i], 'issued']),
    );
    // No amount, currency symbol or value type anywhere in the answer, nor the owner or collection name.
    expect(body.pdfSha256).toMatch(/^[0-9a-f]{64}$/);
    const shown = leakCheckText(body);
    for (const secret of [
      '18000',
      '18,000',
      '9500',
      '4000',
      '£',
      'GBP',
      'USD',
      'insurance',
      'Crawley',
      'Estate',
    ])
      expect(shown).not.toContain(secret);
    expect((await call(t, 'GET', '/api/schedules/verify/ZZZZZZZZ')).status).toBe(404);
    expect((await call(t, 'GET', '/api/schedules/verify/not-a-code')).body).toEqual({
      message: 'Schedule not found',
    });
  });

  it('answers a signed credential (vc+jwt) naming items and report codes without values', async () => {
    const res = await call(t, 'GET', `/api/schedules/verify/${scheduleCode}/credential`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/vc+jwt');
    const jwks = (await call(t, 'GET', '/.well-known/jwks.json')).body as Parameters<
      typeof createLocalJWKSet
    >[0];
    const { payload, protectedHeader } = await jwtVerify(res.text, createLocalJWKSet(jwks));
    expect(protectedHeader.typ).toBe('vc+jwt');
    expect(payload).toMatchObject({
      type: ['VerifiableCredential', 'ValuationLabScheduleCredential'],
      credentialSubject: { scheduleCode, itemCount: 3 },
    });
    const subject = payload.credentialSubject as { items: { reportCode: string }[]; pdfSha256: string };
    expect(subject.items.map((i) => i.reportCode)).toEqual(codes);
    const [row] = await t.db.select().from(schedules).where(eq(schedules.code, scheduleCode));
    expect(subject.pdfSha256).toBe(row?.pdfSha256);
    for (const secret of ['18000', 'GBP', 'Crawley', 'Estate'])
      expect(leakCheckText(payload)).not.toContain(secret);
  });

  it('says when a newer schedule replaced it, and which of its reports were withdrawn since', async () => {
    const again = await schedule(c.id, admin);
    expect(again.status, again.text).toBe(200);
    const newer = (again.body as { scheduleCode: string }).scheduleCode;
    expect(newer).not.toBe(scheduleCode);
    let body = (await call(t, 'GET', `/api/schedules/verify/${scheduleCode}`)).body as ScheduleVerification;
    expect(body.superseded?.scheduleCode).toBe(newer);
    const latest = await call(t, 'GET', `/api/collections/${c.id}/schedule`, { token: owner.token });
    expect((latest.body as ScheduleSummary).scheduleCode).toBe(newer);

    const revoke = await call(t, 'POST', `/api/admin/reports/${codes[2]}/revoke`, {
      token: admin.token,
      json: { reason: 'Movement replaced' },
    });
    expect(revoke.status).toBe(200);
    body = (await call(t, 'GET', `/api/schedules/verify/${newer}`)).body as ScheduleVerification;
    expect(body.superseded).toBeNull();
    expect(body.items.map((i) => i.reportStatus)).toEqual(['issued', 'issued', 'revoked']);
    // And no new schedule while a report is withdrawn.
    expect((await schedule(c.id, staff)).status).toBe(409);
  });
});
