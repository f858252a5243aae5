import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { PDFParse } from 'pdf-parse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_CODE_PATTERN } from '../../../common/domain/reports';
import { reportElements, reportRevisions, samples } from '../../db/schema';
import { insertSample } from '../../../tests/support/factories';
import { call, createUser, startTestApp, type TestApp, type TestUser } from '../../../tests/support/test-app';

let t: TestApp;
let admin: TestUser;
let staff: TestUser;
let otherStaff: TestUser;
let owner: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  [admin, staff, otherStaff, owner, stranger] = await Promise.all([
    createUser(t, { role: 'admin' }),
    createUser(t, { role: 'staff', firstName: 'Eleanor', lastName: 'Whitfield' }),
    createUser(t, { role: 'staff' }),
    createUser(t, { role: 'user' }),
    createUser(t, { role: 'user' }),
  ]);
});
afterAll(async () => {
  await t?.close();
});

async function makeSample(
  itemName = 'Victorian Silver Tea Service',
  assignedStaffId: number | null = staff.id,
) {
  return insertSample(t.db, owner, {
    submitterName: 'Olivia Bennett',
    itemName,
    description: 'Four-piece sterling tea service.',
    expertValuation: true,
    status: 'analysis',
    assignedStaffId,
  });
}

const element = (name: string, percentage: number, extra: Record<string, unknown> = {}) => ({
  element: name,
  percentage,
  purity: null,
  quality: null,
  notes: null,
  ...extra,
});

type Issued = { reportCode: string; revision: number; action: string; sha256: string; message: string };

async function issue(sampleId: number, elements: unknown[], token = staff.token, path = 'staff/samples') {
  return call(t, 'POST', `/api/${path}/${sampleId}/report`, { token, json: { elements } });
}

async function download(code: string, token: string) {
  const res = await call(t, 'GET', `/api/report/${code}/pdf`, { token });
  return res as typeof res & { buffer?: Buffer };
}

async function pdfText(bytes: Buffer): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(bytes) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}

describe('report element rules (docs/product/limits.md), enforced by the server', () => {
  it('refuses a missing name or a percentage that is not above 0 with the documented message', async () => {
    const s = await makeSample();
    for (const bad of [element('', 10), element('Gold', 0), { element: 'Gold' }, element('Gold', -1)]) {
      const res = await issue(s.id, [bad]);
      expect(res.status).toBe(400);
      expect((res.body as { message: string }).message).toBe(
        'Please fill in element name and valid percentage',
      );
    }
  });

  it('refuses more than 100, more than two decimals, an unknown quality and an empty list', async () => {
    const s = await makeSample();
    expect((await issue(s.id, [element('Gold', 100.01)])).status).toBe(400);
    const decimals = await issue(s.id, [element('Gold', 10.005)]);
    expect(decimals.status).toBe(400);
    expect((decimals.body as { message: string }).message).toBe(
      'Percentage can have at most 2 decimal places',
    );
    expect((await issue(s.id, [element('Gold', 10, { quality: 'Superb' })])).status).toBe(400);
    const empty = await issue(s.id, []);
    expect(empty.status).toBe(400);
    expect((empty.body as { message: string }).message).toBe('Please add at least one analysis element');
    expect((await issue(s.id, [element('Gold', '10' as unknown as number)])).status).toBe(400);
  });

  it('refuses a duplicate name ignoring case with 409 and the documented message', async () => {
    const s = await makeSample();
    const res = await issue(s.id, [element('Gold', 10), element('gOLD', 5)]);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: 'Element "gOLD" already exists in the report' });
  });

  it('refuses a total over 100 with the documented message and writes nothing', async () => {
    const s = await makeSample();
    const res = await issue(s.id, [element('Gold', 60), element('Silver', 40.01)]);
    expect(res.status).toBe(400);
    expect((res.body as { message: string }).message).toBe('Total percentage of elements cannot exceed 100%');
    expect(await t.db.select().from(reportElements).where(eq(reportElements.sampleId, s.id))).toEqual([]);
    expect(await t.db.select().from(reportRevisions).where(eq(reportRevisions.sampleId, s.id))).toEqual([]);
    const [after] = await t.db.select().from(samples).where(eq(samples.id, s.id));
    expect(after?.reportCode).toBeNull();
    expect(await t.storage.list('reports/')).toEqual([]);
  });

  it('accepts exactly 100 in two-decimal parts, sanitises notes and stores empty notes as null', async () => {
    const s = await makeSample();
    const notes =
      '<h1>Title</h1><p onclick="x()">Shiny <strong>bold</strong> <em>it</em> <u>under</u><script>alert(1)</script>' +
      '<a href="javascript:alert(1)">link</a><img src=x onerror=alert(1)></p><ul><li>one</li></ul><ol><li>two</li></ol>';
    const res = await issue(s.id, [
      element('Gold', 33.33, { notes, quality: 'Excellent', purity: '18k' }),
      element('Silver', 33.33, { notes: '<p></p>' }),
      element('Copper', 33.34, { notes: '   ' }),
    ]);
    expect(res.status).toBe(200);
    const rows = await t.db.select().from(reportElements).where(eq(reportElements.sampleId, s.id));
    const gold = rows.find((r) => r.element === 'Gold');
    expect(gold?.notes).toBe(
      '<h1>Title</h1><p>Shiny <strong>bold</strong> <em>it</em> <u>under</u>link</p><ul><li>one</li></ul><ol><li>two</li></ol>',
    );
    expect(gold?.notes).not.toMatch(/script|onclick|javascript|onerror|<a|<img/i);
    expect(rows.find((r) => r.element === 'Silver')?.notes).toBeNull();
    expect(rows.find((r) => r.element === 'Copper')?.notes).toBeNull();
    expect(rows.map((r) => Number(r.percentage)).reduce((a, b) => a + b, 0)).toBeCloseTo(100, 5);
  });
});

describe('who may issue (docs/product/roles-and-access.md)', () => {
  it('gives a customer 403 on both endpoints, even for their own sample', async () => {
    const s = await makeSample();
    for (const path of ['samples', 'staff/samples']) {
      const res = await issue(s.id, [element('Gold', 10)], owner.token, path);
      expect(res.status).toBe(403);
    }
    expect((await issue(s.id, [element('Gold', 10)], stranger.token, 'samples')).status).toBe(403);
  });

  it('lets the assigned staff member and an admin issue, but not other staff; 401 without a token', async () => {
    const s = await makeSample();
    expect((await issue(s.id, [element('Gold', 10)], otherStaff.token)).status).toBe(403);
    expect(
      (await call(t, 'POST', `/api/staff/samples/${s.id}/report`, { json: { elements: [] } })).status,
    ).toBe(401);
    expect((await issue(s.id, [element('Gold', 10)], staff.token)).status).toBe(200);
    expect((await issue(s.id, [element('Gold', 10)], admin.token, 'samples')).status).toBe(200);
    expect((await issue(999_999, [element('Gold', 10)], admin.token)).status).toBe(404);
  });
});

describe('issuing (docs/product/reports-and-verification.md)', () => {
  it('issues a code from the alphabet, a PDF whose text carries the code, item and every element', async () => {
    const s = await makeSample('Patek Philippe Pocket Watch');
    const res = await issue(s.id, [
      element('Gold', 75.5, {
        purity: '18k',
        quality: 'Excellent',
        notes: '<p>Case <strong>hallmarked</strong></p>',
      }),
      element('Silver', 12.25, { quality: 'Good' }),
      element('Copper', 2),
    ]);
    expect(res.status).toBe(200);
    const body = res.body as Issued;
    expect(body.reportCode).toMatch(REPORT_CODE_PATTERN);
    expect(body).toMatchObject({ revision: 1, action: 'generated' });

    const pdf = await download(body.reportCode, owner.token);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toBe(
      `attachment; filename="Report-${body.reportCode}.pdf"`,
    );
    const bytes = pdf.buffer as Buffer;
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('%PDF');
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(body.sha256);
    const [stored] = await t.db
      .select()
      .from(reportRevisions)
      .where(eq(reportRevisions.reportCode, body.reportCode));
    expect(stored?.sha256).toBe(body.sha256);
    expect(stored?.byteSize).toBe(bytes.length);
    expect(stored?.storageKey).toBe(`reports/${body.reportCode}-r1.pdf`);

    const text = await pdfText(bytes);
    for (const expected of [
      body.reportCode,
      'Patek Philippe Pocket Watch',
      'Gold',
      'Silver',
      'Copper',
      'VAL-',
      'hallmarked',
      'Eleanor Whitfield',
      '75.50%',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('keeps the code and adds a revision when generated again, answering updated', async () => {
    const s = await makeSample();
    const first = (await issue(s.id, [element('Gold', 50)])).body as Issued;
    const againRes = await issue(s.id, [element('Platinum', 20)], admin.token, 'samples');
    expect(againRes.status).toBe(200);
    const again = againRes.body as Issued;
    expect(again).toMatchObject({ reportCode: first.reportCode, revision: 2, action: 'updated' });
    expect(again.sha256).not.toBe(first.sha256);
    const rows = await t.db.select().from(reportElements).where(eq(reportElements.sampleId, s.id));
    expect(rows.map((r) => r.element)).toEqual(['Platinum']);
    const pdf = await download(first.reportCode, staff.token);
    expect(
      createHash('sha256')
        .update(pdf.buffer as Buffer)
        .digest('hex'),
    ).toBe(again.sha256);
    expect(pdf.headers.get('x-report-revision')).toBe('2');
    expect(await t.storage.exists(`reports/${first.reportCode}-r1.pdf`)).toBe(true);
  });

  it('gives every sample its own code', async () => {
    const codes = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const s = await makeSample(`Item ${i}`);
      codes.add(((await issue(s.id, [element('Gold', 10)])).body as Issued).reportCode);
    }
    expect(codes.size).toBe(6);
  });

  it('lets the owner, staff and admin download; hides the report from anyone else; accepts a lower-case code', async () => {
    const s = await makeSample();
    const { reportCode } = (await issue(s.id, [element('Gold', 10)])).body as Issued;
    expect((await download(reportCode.toLowerCase(), owner.token)).status).toBe(200);
    expect((await download(reportCode, otherStaff.token)).status).toBe(200);
    expect((await download(reportCode, admin.token)).status).toBe(200);
    const hidden = await download(reportCode, stranger.token);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: 'Report not found' });
    expect((await download('ZZZZZZZZ', admin.token)).status).toBe(404);
    expect((await call(t, 'GET', `/api/report/${reportCode}/pdf`)).status).toBe(401);
  });
});

describe('revocation', () => {
  it('lets only an admin revoke, with a reason, once; a revoked report is not reissued', async () => {
    const s = await makeSample();
    const { reportCode } = (await issue(s.id, [element('Gold', 10)])).body as Issued;
    const path = `/api/admin/reports/${reportCode}/revoke`;
    expect((await call(t, 'POST', path, { token: staff.token, json: { reason: 'x' } })).status).toBe(403);
    expect((await call(t, 'POST', path, { token: admin.token, json: { reason: '  ' } })).status).toBe(400);
    const ok = await call(t, 'POST', path, { token: admin.token, json: { reason: 'Sample mislabelled' } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ reportCode, revoked: true, revokedReason: 'Sample mislabelled' });
    expect((await call(t, 'POST', path, { token: admin.token, json: { reason: 'again' } })).status).toBe(409);
    expect((await issue(s.id, [element('Gold', 10)])).status).toBe(409);
    expect(
      (
        await call(t, 'POST', '/api/admin/reports/ZZZZZZZZ/revoke', {
          token: admin.token,
          json: { reason: 'x' },
        })
      ).status,
    ).toBe(404);
  });
});
