import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samples, verificationLog } from '../../db/schema';
import { MAX_SAMPLE_FILE_BYTES } from '../../../common/domain/uploads';
import { insertSample } from '../../../tests/support/factories';
import { call, createUser, startTestApp, type TestApp, type TestUser } from '../../../tests/support/test-app';
import { networkPrefix } from './verification-log';

let t: TestApp;
let admin: TestUser;
let staff: TestUser;
let owner: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  [admin, staff, owner] = await Promise.all([
    createUser(t, { role: 'admin' }),
    createUser(t, { role: 'staff', firstName: 'Marcus', lastName: 'Hale' }),
    createUser(t, { role: 'user' }),
  ]);
});
afterAll(async () => {
  await t?.close();
});

async function makeSample(itemName: string) {
  return insertSample(t.db, owner, {
    submitterName: 'Olivia Bennett',
    itemName,
    category: 'jewelry-watches',
    status: 'review',
    assignedStaffId: staff.id,
  });
}

async function issue(sampleId: number, elements: unknown[]) {
  const res = await call(t, 'POST', `/api/staff/samples/${sampleId}/report`, {
    token: staff.token,
    json: { elements },
  });
  expect(res.status).toBe(200);
  return res.body as { reportCode: string; revision: number; sha256: string };
}

async function pdfOf(code: string): Promise<Buffer> {
  const res = (await call(t, 'GET', `/api/report/${code}/pdf`, { token: owner.token })) as {
    buffer?: Buffer;
  };
  if (!res.buffer) throw new Error('no pdf');
  return res.buffer;
}

function checkDocument(code: string, bytes: Buffer) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }), `Report-${code}.pdf`);
  return call(t, 'POST', `/api/reports/verify/${code}/document`, { form });
}

async function logRows(code: string, expectedResults: string[] = []) {
  // The log is written in batches shortly after each answer: wait until what is expected is there.
  let rows: (typeof verificationLog.$inferSelect)[] = [];
  for (let i = 0; i < 60; i++) {
    rows = await t.db.select().from(verificationLog).where(eq(verificationLog.code, code));
    const results = new Set(rows.map((r) => r.result));
    if (rows.length && expectedResults.every((r) => results.has(r))) return rows;
    await new Promise((r) => setTimeout(r, 50));
  }
  return rows;
}

describe('GET /api/reports/verify/{code} (public)', () => {
  it('answers the documented fields plus revision and issue date, with a lower-case, padded code', async () => {
    const s = await makeSample('Art Deco Diamond Brooch');
    const issued = await issue(s.id, [
      {
        element: 'Platinum',
        percentage: 90,
        purity: '950',
        quality: 'Excellent',
        notes: '<p>Internal notes</p>',
      },
      { element: 'Diamond', percentage: 9.5, purity: null, quality: null, notes: null },
    ]);
    const res = await call(t, 'GET', `/api/reports/verify/%20${issued.reportCode.toLowerCase()}%20`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: s.id,
      itemName: 'Art Deco Diamond Brooch',
      category: 'jewelry-watches',
      status: 'review',
      reportCode: issued.reportCode,
      reportElements: [
        { element: 'Platinum', percentage: 90, purity: '950', quality: 'Excellent' },
        { element: 'Diamond', percentage: 9.5, purity: null, quality: null },
      ],
      assignedStaff: { firstName: 'Marcus', lastName: 'Hale' },
      revision: 1,
      revoked: false,
      revokedReason: null,
      revokedAt: null,
    });
    const body = res.body as Record<string, unknown>;
    // The stored instants, to the millisecond, as every answer writes a time (ISO 8601, UTC, ms).
    const [stored] = await t.db
      .select({
        submissionDate: samples.submissionDate,
        reportGeneratedAt: samples.reportGeneratedAt,
        lastUpdated: samples.lastUpdated,
      })
      .from(samples)
      .where(eq(samples.id, s.id));
    expect(body.submissionDate).toBe(stored?.submissionDate.toISOString());
    expect(body.reportGeneratedAt).toBe(stored?.reportGeneratedAt?.toISOString());
    expect(body.lastUpdated).toBe(stored?.lastUpdated.toISOString());
    for (const key of ['submissionDate', 'reportGeneratedAt', 'lastUpdated', 'issuedAt'])
      expect(body[key]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // What leaves publicly: no notes, no owner, no internal ids beyond the documented ones.
    expect(JSON.stringify(body)).not.toContain('Internal notes');
    expect(body).not.toHaveProperty('userId');
    expect(body).not.toHaveProperty('submitterEmail');
    const log = await logRows(issued.reportCode);
    expect(log[0]).toMatchObject({ result: 'authentic', network: '127.0.0.0/24' });
  });

  it('answers 404 Report not found for unknown codes, malformed codes and samples with no issued report', async () => {
    for (const code of ['ZZZZZZZZ', 'abc', 'IIIIIIII', '%3Cscript%3E']) {
      const res = await call(t, 'GET', `/api/reports/verify/${code}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Report not found' });
    }
    const log = await logRows('ZZZZZZZZ');
    expect(log[0]?.result).toBe('not_found');
  });

  it('shows a new revision as current after generating again', async () => {
    const s = await makeSample('Ming Dynasty Style Vase');
    const first = await issue(s.id, [{ element: 'Kaolin', percentage: 60 }]);
    await issue(s.id, [{ element: 'Kaolin', percentage: 65 }]);
    const res = await call(t, 'GET', `/api/reports/verify/${first.reportCode}`);
    expect(res.body).toMatchObject({ revision: 2, reportElements: [{ element: 'Kaolin', percentage: 65 }] });
  });

  it('answers a revoked report with 200, marked revoked with its reason and date', async () => {
    const s = await makeSample('Signed 1927 Yankees Baseball');
    const { reportCode } = await issue(s.id, [{ element: 'Leather', percentage: 40 }]);
    await call(t, 'POST', `/api/admin/reports/${reportCode}/revoke`, {
      token: admin.token,
      json: { reason: 'Signature found to be a later addition' },
    });
    const res = await call(t, 'GET', `/api/reports/verify/${reportCode}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      revoked: true,
      revokedReason: 'Signature found to be a later addition',
    });
    const [stored] = await t.db
      .select({ revokedAt: samples.reportRevokedAt })
      .from(samples)
      .where(eq(samples.reportCode, reportCode));
    expect((res.body as { revokedAt: string }).revokedAt).toBe(stored?.revokedAt?.toISOString());
    expect((await logRows(reportCode))[0]?.result).toBe('revoked');
  });
});

describe('POST /api/reports/verify/{code}/document (public)', () => {
  it('tells current, superseded (when and by which revision), altered and unknown apart', async () => {
    const s = await makeSample('Hudson River School Landscape');
    const first = await issue(s.id, [{ element: 'Linseed oil', percentage: 30 }]);
    const r1 = await pdfOf(first.reportCode);
    const current1 = await checkDocument(first.reportCode, r1);
    expect(current1.status).toBe(200);
    expect(current1.body).toMatchObject({
      result: 'current',
      revision: 1,
      currentRevision: 1,
      revoked: false,
    });

    await issue(s.id, [{ element: 'Linseed oil', percentage: 35 }]);
    const r2 = await pdfOf(first.reportCode);
    expect((await checkDocument(first.reportCode.toLowerCase(), r2)).body).toMatchObject({
      result: 'current',
      revision: 2,
    });
    const older = await checkDocument(first.reportCode, r1);
    expect(older.body).toMatchObject({
      result: 'superseded',
      revision: 1,
      currentRevision: 2,
      supersededByRevision: 2,
    });
    expect((older.body as { supersededAt: string }).supersededAt).toBe(
      (older.body as { currentIssuedAt: string }).currentIssuedAt,
    );

    const altered = Buffer.from(r2);
    const at = altered.indexOf('Linseed');
    const flip = at > 0 ? at : 100;
    altered.writeUInt8((altered.readUInt8(flip) ^ 1) & 0xff, flip);
    const alteredRes = await checkDocument(first.reportCode, altered);
    expect(alteredRes.status).toBe(200);
    expect(alteredRes.body).toMatchObject({ result: 'unknown', revision: null, currentRevision: 2 });

    // Another report's genuine PDF is not a document of this code.
    const other = await makeSample('Morgan Silver Dollar 1893-S');
    const otherIssued = await issue(other.id, [{ element: 'Silver', percentage: 90 }]);
    expect((await checkDocument(first.reportCode, await pdfOf(otherIssued.reportCode))).body).toMatchObject({
      result: 'unknown',
    });
    const expected = ['document_current', 'document_superseded', 'document_unknown'];
    const results = (await logRows(first.reportCode, expected)).map((r) => r.result);
    expect(results).toEqual(
      expect.arrayContaining(['document_current', 'document_superseded', 'document_unknown']),
    );
  });

  it('answers 404 for an unknown code and 400 without a file', async () => {
    const unknown = await checkDocument('ZZZZZZZZ', Buffer.from('%PDF-1.4'));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: 'Report not found' });
    const s = await makeSample('First Edition Moby-Dick');
    const { reportCode } = await issue(s.id, [{ element: 'Cloth', percentage: 10 }]);
    const form = new FormData();
    form.append('note', 'no file');
    expect((await call(t, 'POST', `/api/reports/verify/${reportCode}/document`, { form })).status).toBe(400);
    expect(
      (await call(t, 'POST', `/api/reports/verify/${reportCode}/document`, { json: { file: 'x' } })).status,
    ).toBe(400);
  });

  it('takes exactly one file (400 for two) and answers 413 for one over the limit', async () => {
    const s = await makeSample('Art Deco Diamond Brooch');
    const { reportCode } = await issue(s.id, [{ element: 'Platinum', percentage: 60 }]);
    const pdf = await pdfOf(reportCode);
    const path = `/api/reports/verify/${reportCode}/document`;
    for (const second of ['file', 'other']) {
      const two = new FormData();
      two.append('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'a.pdf');
      two.append(second, new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'b.pdf');
      const res = await call(t, 'POST', path, { form: two });
      expect(res.status, second).toBe(400);
      expect(res.text).toContain('exactly one');
    }
    const huge = Buffer.alloc(MAX_SAMPLE_FILE_BYTES + 1024, 0x20);
    const tooLarge = await checkDocument(reportCode, huge);
    expect(tooLarge.status).toBe(413);
    expect((tooLarge.body as { message: string }).message).toMatch(/MB or smaller/);
  });
});

describe('logging and limits', () => {
  it('keeps only a coarse network prefix', () => {
    expect(networkPrefix('203.0.113.77')).toBe('203.0.113.0/24');
    expect(networkPrefix('::ffff:198.51.100.9')).toBe('198.51.100.0/24');
    expect(networkPrefix('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1::/48');
    expect(networkPrefix('2001:db8::1')).toBe('2001:db8:0::/48');
    expect(networkPrefix(undefined)).toBeNull();
  });

  it('rate limits verification per address with 429', async () => {
    let limited = 0;
    for (let i = 0; i < 80 && !limited; i++) {
      const res = await call(t, 'GET', '/api/reports/verify/ZZZZZZZZ');
      if (res.status === 429) limited = i;
      else expect(res.status).toBe(404);
    }
    expect(limited).toBeGreaterThan(0);
    const res = await call(t, 'GET', '/api/reports/verify/ZZZZZZZZ');
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ message: expect.any(String) });
  });
});
