import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { turnaroundOf } from '../../common/domain/turnaround';
import { openDatabase } from '../db/client';
import {
  collections,
  contactInquiries,
  custodyEvents,
  labSettings,
  reportRevisions,
  samples,
  users,
} from '../db/schema';
import { inventoryOf } from '../modules/custody/inventory';
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

      // One story everywhere (docs/decisions/0014-fit-and-finish.md): only completed samples have a
      // report; no open sample is late; every sample the lab started on has its accepted quote;
      // the people have confirmed addresses, the analysts sign, the lab prices in dollars; inquiry
      // ids grow with their dates.
      const all = await database.db.select().from(samples);
      const withReport = new Set(
        (await database.db.select({ id: reportRevisions.sampleId }).from(reportRevisions)).map((r) => r.id),
      );
      for (const sample of all) {
        expect(withReport.has(sample.id), sample.itemName).toBe(sample.status === 'completed');
        if (sample.status === 'submitted') expect(sample.quoteStatus, sample.itemName).toBeNull();
        else expect(sample.quoteStatus, sample.itemName).toBe('accepted');
        const { overdue, expectedCompletionDate: due } = turnaroundOf(sample);
        expect(overdue, `${sample.itemName} (${sample.status}) was due ${due}`).toBe(false);
      }
      const people = await database.db.select().from(users);
      for (const p of people.filter((u) => u.role !== 'admin'))
        expect(p.emailVerifiedAt, p.email).not.toBeNull();
      for (const p of people.filter((u) => u.role === 'staff')) expect(p.signature, p.email).toBeTruthy();
      const [lab] = await database.db.select().from(labSettings);
      expect(lab?.currency).toBe('USD');
      expect(lab?.paymentInstructions).toContain('Bank transfer');
      // Custody (docs/product/custody.md): the new sample has not arrived; every other item was
      // checked in after it was sent, its events in time order and before now; finished ones went
      // back by courier or were collected; the inventory holds the rest and flags the one waiting.
      const events = await database.db.select().from(custodyEvents).orderBy(custodyEvents.id);
      const custodyOf = (item: string) => all.find((x) => x.itemName.includes(item))?.custodyState;
      expect(custodyOf('Baseball')).toBe('awaiting-arrival');
      expect(custodyOf('Silver Dollar')).toBe('returned');
      expect(custodyOf('Moby-Dick')).toBe('returned');
      expect(custodyOf('Pocket Watch')).toBe('collected');
      expect(custodyOf('Brooch')).toBe('with-expert');
      expect(custodyOf('Mantel Clock')).toBe('received');
      for (const sample of all) {
        const mine = events.filter((e) => e.sampleId === sample.id);
        if (sample.custodyState === 'awaiting-arrival') {
          expect(mine, sample.itemName).toEqual([]);
          continue;
        }
        expect(mine[0]?.event, sample.itemName).toBe('received');
        expect(mine[0]!.at.getTime()).toBeGreaterThan(sample.submissionDate.getTime());
        const times = mine.map((e) => e.at.getTime());
        expect(times, sample.itemName).toEqual([...times].sort((a, b) => a - b));
        expect(times.at(-1)!, sample.itemName).toBeLessThan(Date.now());
        expect(mine.at(-1)?.state, sample.itemName).toBe(sample.custodyState);
      }
      // Every hand-over names its expert: the sample's analyst.
      for (const e of events.filter((x) => x.event === 'to-expert')) {
        const sample = all.find((x) => x.id === e.sampleId);
        expect(e.details.expertId, sample?.itemName).toBe(sample?.assignedStaffId ?? e.byUserId);
        expect(e.details.expertName, sample?.itemName).toMatch(/\S/);
      }
      const shipped = events.find((e) => e.event === 'returned');
      expect(shipped?.details).toMatchObject({
        carrier: expect.any(String),
        trackingNumber: expect.any(String),
      });
      const inventory = await inventoryOf(database.db, new Date());
      expect(inventory.items.map((i) => i.itemName).sort()).toEqual(
        all
          .filter((x) => ['received', 'in-storage', 'with-expert'].includes(x.custodyState))
          .map((x) => x.itemName)
          .sort(),
      );
      expect(inventory.items.filter((i) => i.flagged).map((i) => i.itemName)).toEqual([
        'Victorian Silver Tea Service',
      ]);
      // The estate: one customer's pieces in one collection, some reported, some still at the lab.
      const [estate] = await database.db.select().from(collections);
      expect(estate).toMatchObject({ name: 'Estate of Margaret Grant', purpose: 'estate-planning' });
      const pieces = all.filter((x) => x.collectionId === estate?.id);
      expect(pieces.length).toBeGreaterThan(1);
      expect(new Set(pieces.map((x) => x.userId)).size).toBe(1);
      const reported = pieces.filter((x) => x.reportGenerated && !x.reportRevokedAt).length;
      expect(reported).toBeGreaterThan(0);
      expect(reported).toBeLessThan(pieces.length);
      const inquiries = await database.db.select().from(contactInquiries).orderBy(contactInquiries.id);
      const times = inquiries.map((q) => q.createdAt.getTime());
      expect(times).toEqual([...times].sort((a, b) => a - b));
    } finally {
      await database.close();
    }
  });
});
