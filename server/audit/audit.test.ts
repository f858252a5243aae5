import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  type AuditRecord,
  GENESIS_HASH,
  auditHash,
  auditValues,
  canonicalPieces,
  changedFields,
} from './audit';
import { canonicalJson } from './canonical-json';
import { isSecretField, withoutSecrets } from './without-secrets';

const record: AuditRecord = {
  id: 1,
  at: '2026-03-03T10:00:00.000Z',
  actorId: 7,
  actorLabel: 'admin@lab.test',
  action: 'sample.status_changed',
  subjectType: 'sample',
  subjectId: '42',
  before: { status: 'submitted' },
  after: { status: 'in-progress' },
  network: '203.0.113.0/24',
};

describe('auditHash', () => {
  it('is SHA-256 of the previous hash followed by the canonical JSON of the event', () => {
    const canonical =
      '{"action":"sample.status_changed","actorId":7,"actorLabel":"admin@lab.test","after":{"status":"in-progress"},' +
      '"at":"2026-03-03T10:00:00.000Z","before":{"status":"submitted"},"id":1,"network":"203.0.113.0/24",' +
      '"subjectId":"42","subjectType":"sample"}';
    const expected = createHash('sha256')
      .update(GENESIS_HASH + canonical, 'utf8')
      .digest('hex');
    expect(auditHash(GENESIS_HASH, record)).toBe(expected);
  });

  it('changes with any field of the event and with the previous hash', () => {
    const base = auditHash(GENESIS_HASH, record);
    expect(auditHash('f'.repeat(64), record)).not.toBe(base);
    expect(auditHash(GENESIS_HASH, { ...record, after: { status: 'completed' } })).not.toBe(base);
    expect(auditHash(GENESIS_HASH, { ...record, id: 2 })).not.toBe(base);
    expect(auditHash(GENESIS_HASH, { ...record, actorId: null })).not.toBe(base);
    expect(auditHash(GENESIS_HASH, { ...record, at: '2026-03-03T10:00:00.001Z' })).not.toBe(base);
  });

  it('does not depend on the order of the keys in before and after (as a database hands them back)', () => {
    const a = { ...record, after: { status: 'x', comment: 'y' } };
    const b = { ...record, after: { comment: 'y', status: 'x' } };
    expect(auditHash(GENESIS_HASH, a)).toBe(auditHash(GENESIS_HASH, b));
  });
});

describe('canonicalPieces (the database hashes the event around its time and place)', () => {
  const records: AuditRecord[] = [
    record,
    {
      ...record,
      id: 123456789,
      actorId: null,
      actorLabel: 'système',
      before: null,
      after: null,
      network: null,
    },
    {
      ...record,
      subjectId: null,
      actorLabel: 'a "quoted" \\ label\nwith a line',
      before: { z: 1, a: [1, 'two', { y: null, b: true }], é: 'ü' },
      after: { emoji: '🏺', n: -0.5 },
    },
  ];
  it('put together with the time and the place, are the canonical JSON and give the same hash', () => {
    for (const r of records) {
      const { head, middle, tail } = canonicalPieces(r);
      const body = `${head}${JSON.stringify(r.at)}${middle}${String(r.id)}${tail}`;
      expect(body).toBe(canonicalJson(r));
      const prev = 'c'.repeat(64);
      expect(
        createHash('sha256')
          .update(prev + body, 'utf8')
          .digest('hex'),
      ).toBe(auditHash(prev, r));
    }
  });
});

describe('withoutSecrets', () => {
  it('removes passwords, hashes, tokens, two-factor keys and recovery codes at any depth', () => {
    const row = {
      email: 'a@b.test',
      role: 'staff',
      passwordHash: 'scrypt$…',
      password_hash: 'x',
      totpSecret: 'v1.abc',
      totpPendingSecret: 'v1.def',
      nested: { token: 't', recoveryCodes: ['a'], apiKey: 'k', keep: 1 },
      list: [{ tokenHash: 'h', name: 'n' }],
    };
    expect(withoutSecrets(row)).toEqual({
      email: 'a@b.test',
      role: 'staff',
      nested: { keep: 1 },
      list: [{ name: 'n' }],
    });
    // The input is not touched.
    expect(row.passwordHash).toBe('scrypt$…');
  });

  it('keeps fields that only look alike', () => {
    for (const name of ['photoCount', 'footprint', 'passportChecked', 'status', 'pdfSha256', 'signature'])
      expect(isSecretField(name), name).toBe(false);
    for (const name of ['password', 'newPassword', 'SECRET', 'signing_key', 'key', 'sessionToken'])
      expect(isSecretField(name), name).toBe(true);
  });
});

describe('auditValues', () => {
  it('is what the database will hand back: secrets gone, dates as text, no NUL or lone surrogate', () => {
    expect(
      auditValues({
        at: new Date('2026-01-02T03:04:05.006Z'),
        password: 'p',
        s: 'a\u0000b\uD800c',
        u: undefined,
      }),
    ).toEqual({ at: '2026-01-02T03:04:05.006Z', s: 'ab\uFFFDc' });
    expect(auditValues(null)).toBeNull();
    expect(auditValues(undefined)).toBeNull();
  });
});

describe('changedFields', () => {
  it('keeps only the fields that differ, and answers null when none does', () => {
    expect(
      changedFields(
        { labName: 'A', phone: '1', at: new Date('2026-01-01T00:00:00.000Z'), gone: 'x' },
        { labName: 'B', phone: '1', at: '2026-01-01T00:00:00.000Z', added: true },
      ),
    ).toEqual({
      before: { labName: 'A', gone: 'x', added: null },
      after: { labName: 'B', gone: null, added: true },
    });
    expect(changedFields({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toBeNull();
  });
});
