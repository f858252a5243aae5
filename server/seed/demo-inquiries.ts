import { contactInquiries } from '../db/schema';
import type { DemoSeedContext } from './demo-extras';

type DemoInquiry = typeof contactInquiries.$inferInsert;

const DAY_MS = 24 * 60 * 60 * 1000;

const INQUIRIES: (Omit<DemoInquiry, 'createdAt' | 'updatedAt'> & { daysAgo: number })[] = [
  {
    firstName: 'Margaret',
    lastName: 'Whitfield',
    email: 'margaret.whitfield@example.com',
    phone: '+1 (617) 555-0199',
    subject: 'valuation-quote',
    message:
      'I inherited a Victorian mahogany writing desk with brass fittings. Could you give me a rough quote for a full valuation with provenance research?',
    status: 'new',
    daysAgo: 0,
  },
  {
    firstName: 'Hiroshi',
    lastName: 'Tanaka',
    email: 'h.tanaka@example.com',
    phone: null,
    subject: 'consultation-request',
    message:
      'I collect Meiji-period Satsuma ceramics and would like to book a consultation on Saturday to discuss insuring the collection.',
    status: 'new',
    daysAgo: 1,
  },
  {
    firstName: 'Eleanor',
    lastName: 'Brooks',
    email: 'eleanor.brooks@example.com',
    phone: '+1 (508) 555-0123',
    subject: 'existing-submission',
    message: 'Could you tell me whether the photos of my pocket watch arrived with my submission last week?',
    status: 'pending',
    daysAgo: 3,
  },
  {
    firstName: 'Samuel',
    lastName: 'Okafor',
    email: 'samuel.okafor@example.com',
    phone: null,
    subject: 'general-inquiry',
    message: 'Do you also value first-edition books, or only decorative objects?',
    status: 'pending',
    daysAgo: 6,
  },
  {
    firstName: 'Claire',
    lastName: 'Dubois',
    email: 'claire.dubois@example.com',
    phone: '+33 1 55 55 01 42',
    subject: 'other',
    message: 'Are you able to travel to assess a large estate collection near Providence?',
    status: 'responded',
    daysAgo: 12,
  },
  {
    firstName: 'Thomas',
    lastName: 'Reid',
    email: 'thomas.reid@example.com',
    phone: null,
    subject: 'valuation-quote',
    message: 'How long does an urgent valuation take for a set of six sterling silver candlesticks?',
    status: 'responded',
    daysAgo: 20,
  },
];

/** Issue #7: a few contact inquiries in each status (new, pending, responded). */
export async function seedDemoInquiries(ctx: DemoSeedContext): Promise<string[]> {
  const now = Date.now();
  // Oldest first, so their ids grow with their dates as real ones do.
  const oldestFirst = [...INQUIRIES].sort((a, b) => b.daysAgo - a.daysAgo);
  const rows: DemoInquiry[] = oldestFirst.map(({ daysAgo, ...row }) => {
    const at = new Date(now - daysAgo * DAY_MS);
    return { ...row, createdAt: at, updatedAt: at };
  });
  await ctx.db.insert(contactInquiries).values(rows);
  return [`Contact inquiries: ${rows.length} (new, pending and responded)`];
}
