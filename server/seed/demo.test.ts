import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../db/client';
import { reportRevisions, samples, users } from '../db/schema';
import { verifyPassword } from '../modules/accounts/passwords';
import { seedDemo } from './demo';

// `npm run seed:demo` gives every demo account its own random password and prints it once
// (docs/product/security.md): no fixed password anywhere.
const dataDir = mkdtempSync(join(tmpdir(), 'vl-seed-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('seed:demo', () => {
  it('creates random passwords, prints each once, and they sign in', { timeout: 120_000 }, async () => {
    const printed: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      printed.push(args.map(String).join(' '));
    });
    const env = { DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' };
    const result = await seedDemo(env).finally(() => log.mockRestore());
    if (!result.seeded) throw new Error('not seeded');
    const passwords = result.logins.map((l) => l.password ?? '');
    expect(result.logins.map((l) => l.role)).toEqual([
      'admin',
      'staff',
      'staff',
      'customer',
      'customer',
      'customer',
    ]);
    expect(new Set(passwords).size).toBe(passwords.length);
    const output = printed.join('\n');
    for (const p of passwords) {
      expect(p.length).toBeGreaterThanOrEqual(16);
      expect(output.split(p).length - 1).toBe(1);
    }
    expect(output).not.toContain('demo-password');

    const database = await openDatabase({ dataDir });
    try {
      for (const l of result.logins) {
        const [row] = await database.db.select().from(users).where(eq(users.email, l.email));
        expect(await verifyPassword(row?.passwordHash ?? '', l.password ?? ''), l.email).toBe(true);
      }
      // The issued reports state a verdict, a grade, a value and their photo
      // (docs/product/valuation-report.md).
      const reports = await database.db
        .select({
          item: samples.itemName,
          content: reportRevisions.content,
          revision: reportRevisions.revision,
        })
        .from(reportRevisions)
        .innerJoin(samples, eq(samples.id, reportRevisions.sampleId));
      const latest = (item: string) =>
        reports.filter((r) => r.item.includes(item)).sort((a, b) => b.revision - a.revision)[0]?.content;
      const painting = latest('Landscape');
      expect(painting?.valuation).toMatchObject({ valueType: 'insurance-replacement', currency: 'USD' });
      expect(painting?.valuation?.low).toBeLessThan(painting?.valuation?.high ?? 0);
      expect(painting?.photoIds).toHaveLength(1);
      expect(latest('Pocket Watch')).toMatchObject({
        authenticity: { verdict: 'authentic' },
        condition: { grade: 'very-good' },
      });
      expect(latest('Silver Dollar')?.identification?.maker).toContain('Mint');
      for (const r of reports) expect(r.content?.valuation?.effectiveDate, r.item).toBeDefined();
    } finally {
      await database.close();
    }
  });
});
