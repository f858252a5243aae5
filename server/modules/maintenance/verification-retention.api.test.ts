import { like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../tests/support/test-app';
import { verificationLog } from '../../db/schema';
import { loadConfig } from '../../config';
import { pruneVerificationLog } from './verification-retention';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const DAY = 86_400_000;

describe('verification log retention', () => {
  it('deletes the entries older than the retention and keeps the rest', async () => {
    const now = new Date('2026-06-01T12:00:00Z');
    const ago = (days: number) => new Date(now.getTime() - days * DAY);
    await t.db.insert(verificationLog).values([
      { code: 'RETAIN-OLD-1', result: 'valid', at: ago(401), network: '203.0.113.0/24' },
      { code: 'RETAIN-OLD-2', result: 'not_found', at: ago(1000) },
      { code: 'RETAIN-EDGE', result: 'valid', at: ago(399) },
      { code: 'RETAIN-NEW', result: 'valid', at: ago(1) },
    ]);
    expect(await pruneVerificationLog(t.db, 400, now)).toBe(2);
    const left = await t.db
      .select({ code: verificationLog.code })
      .from(verificationLog)
      .where(like(verificationLog.code, 'RETAIN-%'));
    expect(left.map((r) => r.code).sort()).toEqual(['RETAIN-EDGE', 'RETAIN-NEW']);
    // Running again (another instance, the next day's run) deletes nothing more.
    expect(await pruneVerificationLog(t.db, 400, now)).toBe(0);
  });

  it('is configured by VERIFICATION_LOG_RETENTION_DAYS: 400 days by default, at least 1', () => {
    const base = { DATA_DIR: '/tmp/vl-retention-config' };
    expect(loadConfig({ ...base }).verificationLogRetentionDays).toBe(400);
    expect(loadConfig({ ...base, VERIFICATION_LOG_RETENTION_DAYS: '30' }).verificationLogRetentionDays).toBe(
      30,
    );
    expect(() => loadConfig({ ...base, VERIFICATION_LOG_RETENTION_DAYS: '0' })).toThrow(
      /VERIFICATION_LOG_RETENTION_DAYS/,
    );
  });
});
