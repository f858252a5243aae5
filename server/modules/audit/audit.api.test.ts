import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEvent, AuditVerification } from '../../../common/contracts/audit';
import { insertSample } from '../../../tests/support/factories';
import { callOk } from '../../../tests/support/http';
import {
  call,
  createUser,
  dbKind,
  freshDatabase,
  startTestApp,
  type TestApp,
  type TestUser,
} from '../../../tests/support/test-app';
import { type AuditRecord, auditHash, recordAudit } from '../../audit/audit';
import { openPglite } from '../../db/client';
import { auditChainHead, auditEvents } from '../../db/schema';

// The admin's audit API (docs/product/audit-trail.md) on both databases: filters, paging, CSV,
// verification, and `npm run audit:verify`.

let t: TestApp;
let admin: TestUser;
let staff: TestUser;
let owner: TestUser;
let sampleA: number;
let sampleB: number;

const list = async (query: string, token = admin.token) => {
  const res = await call(t, 'GET', `/api/admin/audit${query}`, { token });
  expect(res.status, res.text).toBe(200);
  return { events: res.body as AuditEvent[], total: Number(res.headers.get('x-total-count')) };
};

/** Runs `fn` with the append-only triggers off, as a superuser could (the test harness is one). */
async function behindTheAppsBack(fn: () => Promise<unknown>) {
  await t.db.execute(sql`alter table audit_events disable trigger user`);
  try {
    await fn();
  } finally {
    await t.db.execute(sql`alter table audit_events enable trigger user`);
  }
}

beforeAll(async () => {
  t = await startTestApp();
  [admin, staff, owner] = await Promise.all([
    createUser(t, { role: 'admin' }),
    createUser(t, { role: 'staff' }),
    createUser(t, { role: 'user' }),
  ]);
  sampleA = (await insertSample(t.db, owner, { status: 'submitted', assignedStaffId: staff.id })).id;
  sampleB = (await insertSample(t.db, owner, { status: 'submitted', assignedStaffId: staff.id })).id;
  for (const status of ['in-progress', 'analysis'])
    await callOk(t, 'POST', `/api/staff/samples/${sampleA}/status`, { token: staff.token, json: { status } });
  await callOk(t, 'POST', `/api/staff/samples/${sampleB}/status`, {
    token: staff.token,
    json: { status: 'in-progress', comment: '=HYPERLINK("http://evil.test")' },
  });
  await callOk(t, 'POST', `/api/admin/samples/${sampleA}/assign`, {
    token: admin.token,
    json: { staffId: admin.id },
  });
});
afterAll(() => t?.close());

describe('GET /api/admin/audit', () => {
  it('answers every event newest first with the total, paged to any depth', async () => {
    const all = await list('?pageSize=200');
    expect(all.total).toBe(all.events.length);
    expect(all.total).toBeGreaterThanOrEqual(7); // 3 sign-ins, 3 status changes, 1 assignment
    const ids = all.events.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(ids[0]).toBe(all.total);
    const page2 = await list('?page=2&pageSize=3');
    expect(page2.total).toBe(all.total);
    expect(page2.events.map((e) => e.id)).toEqual(ids.slice(3, 6));
    expect((await list(`?page=${all.total + 1}&pageSize=1`)).events).toEqual([]);
  });

  it('filters by subject, action, actor and time, each alone and together', async () => {
    const a = await list(`?subjectType=sample&subjectId=${sampleA}`);
    expect(a.total).toBe(3);
    expect(a.events.map((e) => e.action)).toEqual([
      'sample.assigned',
      'sample.status_changed',
      'sample.status_changed',
    ]);
    expect(a.events[1]).toMatchObject({
      actorId: staff.id,
      actorLabel: staff.email,
      subjectType: 'sample',
      subjectId: String(sampleA),
      before: { status: 'in-progress' },
      after: { status: 'analysis' },
      network: '127.0.0.0/24',
    });
    expect(a.events[0]?.hash).toMatch(/^[0-9a-f]{64}$/);
    const statuses = await list(`?action=sample.status_changed&subjectType=sample&subjectId=${sampleA}`);
    expect(statuses.total).toBe(2);
    expect((await list(`?actor=${staff.id}&action=sample.status_changed`)).total).toBe(3);
    expect(
      (await list(`?actor=${encodeURIComponent(staff.email.toUpperCase())}&action=sample.status_changed`))
        .total,
    ).toBe(3);
    expect((await list(`?actor=${admin.id}&action=sample.assigned`)).events.map((e) => e.subjectId)).toEqual([
      String(sampleA),
    ]);
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect((await list(`?subjectId=${sampleA}&subjectType=sample&from=${today}&to=${today}`)).total).toBe(3);
    expect((await list(`?subjectId=${sampleA}&subjectType=sample&from=${tomorrow}`)).total).toBe(0);
    expect((await list(`?subjectId=${sampleA}&subjectType=sample&to=2020-01-01T00:00:00Z`)).total).toBe(0);
    // Cleared filters in a URL (empty values) are no filters.
    expect((await list('?action=&subjectType=&subjectId=&actor=&from=&to=')).total).toBe(
      (await list('')).total,
    );
  });

  it('refuses bad filters with 400 and the field, and a filtered page beyond 10,000 events', async () => {
    for (const [query, path] of [
      ['?action=sample.exploded', 'action'],
      ['?subjectType=planet', 'subjectType'],
      ['?from=yesterday', 'from'],
      ['?to=2026-13-45', 'to'],
      ['?pageSize=201', 'pageSize'],
      ['?page=0', 'page'],
    ] as const) {
      const res = await call(t, 'GET', `/api/admin/audit${query}`, { token: admin.token });
      expect(res.status, query).toBe(400);
      expect((res.body as { errors: { path: string }[] }).errors[0]?.path, query).toBe(path);
    }
    const deep = await call(t, 'GET', '/api/admin/audit?action=auth.signed_in&page=51&pageSize=200', {
      token: admin.token,
    });
    expect(deep.status).toBe(400);
    expect((deep.body as { message: string }).message).toMatch(/narrow the filters or export the CSV/);
    expect(
      (await call(t, 'GET', '/api/admin/audit?page=51&pageSize=200', { token: admin.token })).status,
    ).toBe(200);
  });

  it('is for admins only', async () => {
    expect((await call(t, 'GET', '/api/admin/audit')).status).toBe(401);
    expect((await call(t, 'GET', '/api/admin/audit', { token: staff.token })).status).toBe(403);
    expect((await call(t, 'GET', '/api/admin/audit.csv', { token: owner.token })).status).toBe(403);
    expect((await call(t, 'GET', '/api/admin/audit/verify', { token: staff.token })).status).toBe(403);
  });
});

describe('GET /api/admin/audit.csv', () => {
  it('streams the filtered events as CSV, newest first, with before and after as JSON and formulas defused', async () => {
    const res = await call(t, 'GET', `/api/admin/audit.csv?subjectType=sample&subjectId=${sampleB}`, {
      token: admin.token,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="audit-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const rows = parse(res.text, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actorId: String(staff.id),
      actorLabel: staff.email,
      action: 'sample.status_changed',
      subjectType: 'sample',
      subjectId: String(sampleB),
      network: '127.0.0.0/24',
    });
    expect(JSON.parse(rows[0]?.before ?? '')).toEqual({ status: 'submitted' });
    expect(JSON.parse(rows[0]?.after ?? '')).toEqual({
      status: 'in-progress',
      comment: '=HYPERLINK("http://evil.test")',
    });
  });

  it('exports more events than one read batch, all of them in order', async () => {
    // 1,100 events (one read batch is 1,000), chained exactly as recordAudit chains them but written
    // in one statement: a loaded machine need not run 2,200 round trips.
    await t.db.transaction(async (tx) => {
      const [head] = await tx.select().from(auditChainHead).for('update');
      if (!head) throw new Error('no chain head');
      let prev = head.lastHash;
      const at = new Date().toISOString();
      const rows = Array.from({ length: 1100 }, (_, i) => {
        const record: AuditRecord = {
          id: head.seq + 1 + i,
          at,
          actorId: null,
          actorLabel: 'system',
          action: 'lab.settings_changed',
          subjectType: 'lab_settings',
          subjectId: '1',
          before: { n: i },
          after: { n: i + 1 },
          network: null,
        };
        const hash = auditHash(prev, record);
        const row = { ...record, at: new Date(at), prevHash: prev, hash };
        prev = hash;
        return row;
      });
      await tx.insert(auditEvents).values(rows);
      await tx.update(auditChainHead).set({ seq: head.seq + rows.length, lastHash: prev });
    });
    const res = await call(t, 'GET', '/api/admin/audit.csv?action=lab.settings_changed&actor=system', {
      token: admin.token,
    });
    const rows = parse(res.text, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(1100);
    expect(rows.map((r) => JSON.parse(r.before ?? '').n)).toEqual(
      Array.from({ length: 1100 }, (_, i) => 1099 - i),
    );
    expect(rows.every((r) => r.actorLabel === 'system' && r.actorId === '')).toBe(true);
  });

  it('writes each event as its exact CSV line: quoting, JSON as the list gives it, an apostrophe for a formula only outside the JSON', async () => {
    const subjectId = `-bytes-${Date.now().toString(36)}`;
    await t.db.transaction((tx) =>
      recordAudit(tx, {
        actor: null,
        action: 'lab.settings_changed',
        subject: { type: 'lab_settings', id: subjectId },
        before: { '10': -1, b: 'x, "y"\nz', a: [1, -2.5, null], nested: { '=f': '@g' } },
        after: null,
        ip: '2001:db8:5::1',
      }),
    );
    const { events } = await list(`?subjectId=${encodeURIComponent(subjectId)}`);
    const e = events[0];
    if (!e) throw new Error('no event');
    const quoted = (text: string) => `"${text.replaceAll('"', '""')}"`;
    const res = await call(t, 'GET', `/api/admin/audit.csv?subjectId=${encodeURIComponent(subjectId)}`, {
      token: admin.token,
    });
    expect(res.text).toBe(
      'id,at,actorId,actorLabel,action,subjectType,subjectId,before,after,network,prevHash,hash\n' +
        `${e.id},${e.at},,system,lab.settings_changed,lab_settings,'${subjectId},` +
        `${quoted(JSON.stringify(e.before))},,2001:db8:5::/48,${e.prevHash},${e.hash}\n`,
    );
    expect(JSON.stringify(e.before)).toMatch(/^\{"10":-1,/);
  });

  it('writes a formula-like label with a leading apostrophe', async () => {
    const typed = '=cmd@evil.test';
    await call(t, 'POST', '/login', { json: { email: typed, password: 'whatever-123' } });
    const res = await call(t, 'GET', '/api/admin/audit.csv?action=auth.sign_in_failed', {
      token: admin.token,
    });
    const rows = parse(res.text, { columns: true }) as Record<string, string>[];
    const labels = rows.map((r) => r.actorLabel);
    if (labels.includes(typed)) throw new Error('the formula was written as it is');
    expect(labels).toContain(`'${typed}`);
  });
});

describe('GET /api/admin/audit/verify', () => {
  it('says valid, with the number of events and the head hash', async () => {
    const { total, events } = await list('?pageSize=1');
    const res = (await callOk(t, 'GET', '/api/admin/audit/verify', {
      token: admin.token,
    })) as AuditVerification;
    expect(res).toEqual({ valid: true, events: total, headHash: events[0]?.hash });
  });

  it('names an event edited behind the app’s back, and one deleted', async () => {
    const a = await list(`?subjectType=sample&subjectId=${sampleA}&action=sample.assigned`);
    const target = a.events[0];
    if (!target) throw new Error('no event');
    await behindTheAppsBack(() =>
      t.db.execute(
        sql`update audit_events set after = '{"assignedStaffId":999}'::jsonb where id = ${target.id}`,
      ),
    );
    try {
      expect(await callOk(t, 'GET', '/api/admin/audit/verify', { token: admin.token })).toMatchObject({
        valid: false,
        firstBrokenId: target.id,
        problem: `Event ${target.id} was changed after it was written.`,
      });
    } finally {
      await behindTheAppsBack(() =>
        t.db.execute(
          sql`update audit_events set after = ${JSON.stringify(target.after)}::jsonb where id = ${target.id}`,
        ),
      );
    }
    expect(await callOk(t, 'GET', '/api/admin/audit/verify', { token: admin.token })).toMatchObject({
      valid: true,
    });

    const [row] = await t.db
      .select()
      .from(auditEvents)
      .where(sql`${auditEvents.id} = ${target.id - 1}`);
    if (!row) throw new Error('no event before');
    await behindTheAppsBack(() => t.db.execute(sql`delete from audit_events where id = ${row.id}`));
    try {
      expect(await callOk(t, 'GET', '/api/admin/audit/verify', { token: admin.token })).toMatchObject({
        valid: false,
        firstBrokenId: row.id + 1,
        problem: `Event ${row.id} is missing.`,
      });
    } finally {
      await behindTheAppsBack(() => t.db.insert(auditEvents).values(row));
    }
  });
});

describe('npm run audit:verify', () => {
  /** Runs the script against a database of its own with a few events; answers its exit code and output. */
  async function runScript(tamper: boolean) {
    const dataDir = mkdtempSync(join(tmpdir(), 'vl-audit-'));
    let env: Record<string, string>;
    let cleanup: () => Promise<void>;
    const write = async (db: TestApp['db']) => {
      for (let i = 0; i < 3; i++)
        await db.transaction((tx) =>
          recordAudit(tx, {
            actor: null,
            action: 'sample.status_changed',
            subject: { type: 'sample', id: i },
            after: { i },
          }),
        );
      if (tamper) {
        await db.execute(sql`alter table audit_events disable trigger user`);
        await db.execute(sql`update audit_events set after = '{"i":7}'::jsonb where id = 2`);
        await db.execute(sql`alter table audit_events enable trigger user`);
      }
    };
    if (dbKind() === 'postgres') {
      const fresh = await freshDatabase();
      await write(fresh.database.db);
      await fresh.database.close();
      env = { DATABASE_URL: fresh.url ?? '' };
      cleanup = fresh.drop;
    } else {
      const database = await openPglite(join(dataDir, 'db'));
      await write(database.db);
      await database.close();
      env = {};
      cleanup = async () => {};
    }
    try {
      const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/audit-verify.ts'], {
        env: { PATH: process.env.PATH, DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env },
        encoding: 'utf8',
        timeout: 100_000,
      });
      return { code: run.status, out: JSON.parse(run.stdout) as AuditVerification, err: run.stderr };
    } finally {
      await cleanup();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }

  // Each run creates and migrates a database of its own, then the script opens it again: slow on PGlite.
  it('exits 0 and prints the verification of a valid chain', { timeout: 120_000 }, async () => {
    const run = await runScript(false);
    expect(run.code, run.err).toBe(0);
    expect(run.out).toMatchObject({ valid: true, events: 3 });
    expect(run.err).toMatch(/Audit chain valid: 3 events/);
  });

  it('exits 1 and names the edited event', { timeout: 120_000 }, async () => {
    const run = await runScript(true);
    expect(run.code, run.err).toBe(1);
    expect(run.out).toMatchObject({ valid: false, events: 3, firstBrokenId: 2 });
    expect(run.err).toMatch(/BROKEN at event 2/);
  });
});
