import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { count, eq, ne } from 'drizzle-orm';
import type { SampleStatus } from '../../common/domain/samples';
import { loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { sampleStatusHistory, samples, users } from '../db/schema';
import { ensureFirstAdmin } from '../modules/accounts/first-admin';
import { insertUser } from '../modules/accounts/accounts.queries';
import { hashPassword } from '../modules/accounts/passwords';
import { createDiskStorage } from '../storage/disk-storage';
import { seedDemoExtras } from './demo-extras';
import { addDemoPhoto, type DemoDrawing } from './demo-photos';
import { DEMO_QUALIFICATIONS } from './demo-appraisals';

// `npm run seed:demo`: fills an EMPTY database with staff, customers, samples in every status and
// issued reports, and prints the logins. Refuses politely when there is data already.

/** A fresh random password for one demo account: 18 characters of base64url (108 bits). */
export const randomDemoPassword = () => randomBytes(14).toString('base64url');

/** One demo login as printed: every account gets its own random password, shown once. */
export type DemoLogin = { role: 'admin' | 'staff' | 'customer'; email: string; password: string | null };

/**
 * The demo lab's items. Each says when it was made (the estimated age is counted from it), what it
 * weighs and measures as such a thing really does, how far the lab has got with it, which analyst of
 * the About page's team handles it, and which drawing is its photo.
 */
type DemoItem = {
  itemName: string;
  year: number;
  circa: boolean;
  dimensions: string;
  weight: string;
  materials: string;
  category: string;
  description: string;
  status: SampleStatus;
  analyst: 'eleanor' | 'marcus' | null;
  drawing: DemoDrawing;
  valueRange: string;
  daysAgo: number;
  /** Urgent items are due in 5 business days, others in 10: open items are chosen within their time. */
  urgent: boolean;
};

export const DEMO_ITEMS: readonly DemoItem[] = [
  {
    itemName: 'Morgan Silver Dollar 1893-S',
    year: 1893,
    circa: false,
    dimensions: '38.1 mm diameter',
    weight: '26.73 g',
    materials: '90% silver, 10% copper',
    category: 'coins-currency',
    description:
      'Key-date Morgan dollar struck at San Francisco in 1893, light circulation, original surfaces.',
    status: 'completed',
    analyst: 'marcus',
    drawing: 'coin',
    valueRange: '5000-25000',
    daysAgo: 30,
    urgent: true,
  },
  {
    itemName: 'Victorian Silver Tea Service',
    year: 1868,
    circa: false,
    dimensions: 'Teapot 24 x 14 x 21 cm; tray 52 x 36 cm',
    weight: '3.4 kg (four pieces)',
    materials: 'Sterling silver, ebonised wood handles',
    category: 'furniture-decorative',
    description: 'Four-piece sterling tea service with engraved crest, hallmarked London 1868.',
    status: 'completed',
    analyst: 'eleanor',
    drawing: 'tea-service',
    valueRange: '5000-25000',
    daysAgo: 26,
    urgent: false,
  },
  {
    itemName: 'Patek Philippe Pocket Watch',
    year: 1910,
    circa: true,
    dimensions: '50 mm case diameter',
    weight: '96 g',
    materials: '18k gold case, enamel dial',
    category: 'jewelry-watches',
    description: '18k gold open-face pocket watch, enamel dial, circa 1910.',
    status: 'completed',
    analyst: 'marcus',
    drawing: 'pocket-watch',
    valueRange: '25000-100000',
    daysAgo: 22,
    urgent: false,
  },
  {
    itemName: 'First Edition Moby-Dick',
    year: 1851,
    circa: false,
    dimensions: '19.5 x 12.5 x 4 cm',
    weight: '620 g',
    materials: 'Rag paper, publisher’s cloth binding',
    category: 'books-manuscripts',
    description: 'Harper & Brothers 1851 first American edition, original cloth.',
    status: 'completed',
    analyst: 'eleanor',
    drawing: 'book',
    valueRange: '25000-100000',
    daysAgo: 19,
    urgent: true,
  },
  {
    itemName: 'Hudson River School Landscape',
    year: 1865,
    circa: true,
    dimensions: '61 x 91 cm (framed 80 x 110 cm)',
    weight: '7.5 kg framed',
    materials: 'Oil on canvas, giltwood frame',
    category: 'artwork-paintings',
    description: 'Oil on canvas, signed lower right, period gilt frame; about 1865.',
    status: 'completed',
    analyst: 'eleanor',
    drawing: 'landscape',
    valueRange: '25000-100000',
    daysAgo: 16,
    urgent: false,
  },
  {
    itemName: 'Blue and White Vase, Ming Style',
    year: 1890,
    circa: true,
    dimensions: '42 cm high, 18 cm diameter',
    weight: '2.1 kg',
    materials: 'Porcelain, cobalt underglaze',
    category: 'ceramics-pottery',
    description:
      'Late Qing porcelain vase in the Ming manner with dragon motif, apocryphal six-character mark.',
    status: 'review',
    analyst: 'eleanor',
    drawing: 'vase',
    valueRange: '1000-5000',
    daysAgo: 9,
    urgent: false,
  },
  {
    itemName: 'Art Deco Diamond Brooch',
    year: 1928,
    circa: true,
    dimensions: '5.2 x 2.1 cm',
    weight: '14 g',
    materials: 'Platinum, old European cut diamonds',
    category: 'jewelry-watches',
    description: 'Platinum bar brooch set with old European cut diamonds, about 1928.',
    status: 'analysis',
    analyst: 'marcus',
    drawing: 'brooch',
    valueRange: '5000-25000',
    daysAgo: 5,
    urgent: true,
  },
  {
    itemName: 'Signed 1927 Yankees Baseball',
    year: 1927,
    circa: false,
    dimensions: '7.3 cm diameter',
    weight: '145 g',
    materials: 'Horsehide cover, wool winding, ink signatures',
    category: 'collectibles-memorabilia',
    description: 'Team-signed 1927 baseball with a letter of provenance.',
    status: 'submitted',
    analyst: null,
    drawing: 'baseball',
    valueRange: 'over-100000',
    daysAgo: 2,
    urgent: false,
  },
  {
    itemName: 'French Empire Mantel Clock',
    year: 1810,
    circa: true,
    dimensions: '46 x 30 x 14 cm',
    weight: '9.8 kg',
    materials: 'Gilt bronze (ormolu), enamel dial, brass movement',
    category: 'furniture-decorative',
    description: 'Ormolu mantel clock with an enamel dial and an eight-day striking movement, about 1810.',
    status: 'in-progress',
    analyst: 'marcus',
    drawing: 'mantel-clock',
    valueRange: '5000-25000',
    daysAgo: 4,
    urgent: false,
  },
  {
    itemName: 'Pair of Georgian Silver Candlesticks',
    year: 1765,
    circa: false,
    dimensions: '27 cm high, bases 12.5 cm square',
    weight: '1.46 kg (the pair, loaded bases)',
    materials: 'Sterling silver, loaded bases',
    category: 'furniture-decorative',
    description: 'Pair of cast sterling candlesticks with detachable nozzles, hallmarked London 1765.',
    status: 'on-hold',
    analyst: 'eleanor',
    drawing: 'candlesticks',
    valueRange: '5000-25000',
    daysAgo: 3,
    urgent: false,
  },
];

/** The statuses a sample passes through to reach its own, in order (docs/product/statuses.md). */
const PATH_TO: Record<SampleStatus, SampleStatus[]> = {
  submitted: [],
  'in-progress': ['in-progress'],
  analysis: ['in-progress', 'analysis'],
  review: ['in-progress', 'analysis', 'review'],
  completed: ['in-progress', 'analysis', 'review', 'completed'],
  'on-hold': ['in-progress', 'on-hold'],
};
const STEP_COMMENTS: Partial<Record<SampleStatus, string>> = {
  'in-progress': 'Started by staff',
  'on-hold':
    'Waiting for the owner’s purchase receipt and earlier appraisal before the marks can be researched.',
};
const DAY = 24 * 3600 * 1000;

export async function seedDemo(env: Record<string, string | undefined> = process.env) {
  const config = loadConfig(env);
  const database = await openDatabase(config);
  const db = database.db;
  try {
    const [sampleCount] = await db.select({ n: count() }).from(samples);
    const [nonAdminCount] = await db.select({ n: count() }).from(users).where(ne(users.role, 'admin'));
    if ((sampleCount?.n ?? 0) > 0 || (nonAdminCount?.n ?? 0) > 0) {
      console.log(
        'The database already holds data; seed:demo only fills an empty database. Nothing was changed.',
      );
      return { seeded: false as const };
    }
    const logins: DemoLogin[] = [];
    const adminEmail = config.adminEmail ?? 'admin@demo.lab';
    const adminPassword = config.adminPassword ?? randomDemoPassword();
    await ensureFirstAdmin(db, { email: adminEmail, password: adminPassword });
    // ADMIN_PASSWORD is the operator's own: never printed.
    logins.push({ role: 'admin', email: adminEmail, password: config.adminPassword ? null : adminPassword });
    const person = async (role: 'staff' | 'customer', email: string, firstName: string, lastName: string) => {
      const password = randomDemoPassword();
      logins.push({ role, email, password });
      const user = await insertUser(db, {
        email,
        passwordHash: await hashPassword(password),
        firstName,
        lastName,
        ...(role === 'staff'
          ? { role: 'staff' as const, qualifications: DEMO_QUALIFICATIONS[email] ?? null }
          : {}),
      });
      // Demo people have confirmed their addresses, as real clients of a lab would have.
      const [confirmed] = await db
        .update(users)
        .set({ emailVerifiedAt: new Date(Date.now() - 60 * DAY) })
        .where(eq(users.id, user.id))
        .returning();
      return confirmed ?? user;
    };
    const staff = [
      await person('staff', 'eleanor.staff@demo.lab', 'Eleanor', 'Hayes'),
      await person('staff', 'marcus.staff@demo.lab', 'Marcus', 'Bennett'),
    ];
    const customers = [
      await person('customer', 'olivia@demo.lab', 'Olivia', 'Grant'),
      await person('customer', 'james@demo.lab', 'James', 'Carter'),
      await person('customer', 'sofia@demo.lab', 'Sofia', 'Romano'),
    ];
    const analysts = { eleanor: staff[0], marcus: staff[1] };
    const storage = createDiskStorage(join(config.dataDir, 'files'));
    const created: (typeof samples.$inferSelect)[] = [];
    for (const [i, item] of DEMO_ITEMS.entries()) {
      const owner = customers[i % customers.length];
      if (!owner) continue;
      const assigned = item.analyst ? (analysts[item.analyst] ?? null) : null;
      const representative = i % 4 === 3;
      const submitted = new Date(Date.now() - item.daysAgo * DAY);
      const [row] = await db
        .insert(samples)
        .values({
          userId: owner.id,
          submitterName: `${owner.firstName} ${owner.lastName}`,
          submitterEmail: owner.email,
          submitterPhone: '+1 617 555 01' + String(10 + i),
          submitterCountry: 'united-states',
          isPersonalSubmission: !representative,
          isRepresentative: representative,
          representativeName: representative ? 'Harold Finch' : null,
          representativeEmail: representative ? 'harold.finch@example.com' : null,
          relationshipToOwner: representative ? 'estate-manager' : null,
          clientName: representative ? `${owner.firstName} ${owner.lastName}` : null,
          itemName: item.itemName,
          category: item.category,
          description: item.description,
          // Counted from the year the item was made to the year it was submitted.
          estimatedAge: `${submitted.getFullYear() - item.year} years (${item.circa ? 'c. ' : ''}${item.year})`,
          dimensions: item.dimensions,
          weight: item.weight,
          materials: item.materials,
          expertValuation: true,
          authenticityCheck: i % 2 === 0,
          conditionAssessment: i % 3 === 0,
          provenanceResearch:
            item.category === 'books-manuscripts' || item.category === 'collectibles-memorabilia',
          purposeOfValuation: 'insurance',
          urgencyLevel: item.urgent ? 'urgent' : 'standard',
          estimatedValueRange: item.valueRange,
          status: item.status,
          assignedStaffId: assigned?.id ?? null,
          submissionDate: submitted,
          createdAt: submitted,
        })
        .returning();
      if (!row) continue;
      created.push(row);
      await db.insert(sampleStatusHistory).values({
        sampleId: row.id,
        status: 'submitted',
        comment: 'Sample submitted',
        updatedBy: owner.id,
        createdAt: submitted,
      });
      // Each later step a day or two apart, the last one before today.
      const steps = PATH_TO[item.status];
      for (const [n, status] of steps.entries()) {
        const at = new Date(submitted.getTime() + ((n + 1) * (item.daysAgo - 1) * DAY) / (steps.length + 1));
        await db.insert(sampleStatusHistory).values({
          sampleId: row.id,
          status,
          comment: STEP_COMMENTS[status] ?? null,
          updatedBy: assigned?.id ?? null,
          createdAt: at,
        });
      }
      // Every submission carries a photo, as the form requires.
      await addDemoPhoto({ db, storage }, row.id, item.drawing, submitted);
    }
    const extras = await seedDemoExtras({ config, db, storage, samples: created, staff });

    console.log('\nDemo data created. The logins (random passwords, shown only now):');
    for (const l of logins)
      console.log(`  ${l.role.padEnd(9)} ${l.email.padEnd(26)} ${l.password ?? '(your ADMIN_PASSWORD)'}`);
    for (const line of extras.lines) console.log(line);
    return { seeded: true as const, staff, customers, samples: created, logins };
  } finally {
    await database.close();
  }
}

if (
  import.meta.url === `file://${process.argv[1]}` ||
  process.argv[1]?.endsWith('seed-demo.js') ||
  process.argv[1]?.endsWith('demo.ts')
) {
  seedDemo().catch((err) => {
    console.error('seed:demo failed:', (err as Error).message);
    process.exit(1);
  });
}
