import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { count, ne } from 'drizzle-orm';
import { SAMPLE_STATUSES } from '../../common/domain/samples';
import { loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { sampleStatusHistory, samples, users } from '../db/schema';
import { ensureFirstAdmin } from '../modules/accounts/first-admin';
import { insertUser } from '../modules/accounts/accounts.queries';
import { hashPassword } from '../modules/accounts/passwords';
import { createDiskStorage } from '../storage/disk-storage';
import { seedDemoExtras } from './demo-extras';

// `npm run seed:demo`: fills an EMPTY database with staff, customers, samples in every status and
// issued reports, and prints the logins. Refuses politely when there is data already.

/** A fresh random password for one demo account: 18 characters of base64url (108 bits). */
export const randomDemoPassword = () => randomBytes(14).toString('base64url');

/** One demo login as printed: every account gets its own random password, shown once. */
export type DemoLogin = { role: 'admin' | 'staff' | 'customer'; email: string; password: string | null };

export const DEMO_ITEMS = [
  {
    itemName: 'Victorian Silver Tea Service',
    category: 'furniture-decorative',
    description: 'Four-piece sterling tea service with engraved crest, hallmarked London 1868.',
  },
  {
    itemName: 'Patek Philippe Pocket Watch',
    category: 'jewelry-watches',
    description: '18k gold open-face pocket watch, enamel dial, circa 1910.',
  },
  {
    itemName: 'Ming Dynasty Style Vase',
    category: 'ceramics-pottery',
    description: 'Blue and white porcelain vase with dragon motif, six-character mark.',
  },
  {
    itemName: 'First Edition Moby-Dick',
    category: 'books-manuscripts',
    description: 'Harper & Brothers 1851 first American edition, original cloth.',
  },
  {
    itemName: 'Morgan Silver Dollar 1893-S',
    category: 'coins-currency',
    description: 'Key-date Morgan dollar, light circulation, original surfaces.',
  },
  {
    itemName: 'Hudson River School Landscape',
    category: 'artwork-paintings',
    description: 'Oil on canvas, signed lower right, period gilt frame.',
  },
  {
    itemName: 'Art Deco Diamond Brooch',
    category: 'jewelry-watches',
    description: 'Platinum brooch set with old European cut diamonds.',
  },
  {
    itemName: 'Signed 1927 Yankees Baseball',
    category: 'collectibles-memorabilia',
    description: 'Team-signed baseball with letter of provenance.',
  },
] as const;

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
      return insertUser(db, {
        email,
        passwordHash: await hashPassword(password),
        firstName,
        lastName,
        ...(role === 'staff' ? { role: 'staff' as const } : {}),
      });
    };
    const staff = [
      await person('staff', 'eleanor.staff@demo.lab', 'Eleanor', 'Whitfield'),
      await person('staff', 'marcus.staff@demo.lab', 'Marcus', 'Hale'),
    ];
    const customers = [
      await person('customer', 'olivia@demo.lab', 'Olivia', 'Bennett'),
      await person('customer', 'james@demo.lab', 'James', 'Carter'),
      await person('customer', 'sofia@demo.lab', 'Sofia', 'Romano'),
    ];
    const created: (typeof samples.$inferSelect)[] = [];
    for (const [i, item] of DEMO_ITEMS.entries()) {
      const owner = customers[i % customers.length];
      if (!owner) continue;
      const status = SAMPLE_STATUSES[i % SAMPLE_STATUSES.length] ?? 'submitted';
      const assigned = status === 'submitted' ? null : (staff[i % staff.length] ?? null);
      const representative = i % 4 === 3;
      const submitted = new Date(Date.now() - (DEMO_ITEMS.length - i) * 3 * 24 * 3600 * 1000);
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
          ...item,
          estimatedAge: `${80 + i * 15} years`,
          dimensions: '30 x 20 x 15 cm',
          weight: '1.2 kg',
          materials: 'Mixed',
          expertValuation: true,
          authenticityCheck: i % 2 === 0,
          conditionAssessment: i % 3 === 0,
          provenanceResearch: i % 4 === 0,
          purposeOfValuation: 'insurance',
          urgencyLevel: i % 3 === 0 ? 'urgent' : 'standard',
          estimatedValueRange: '5000-25000',
          status,
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
      if (status !== 'submitted') {
        await db
          .insert(sampleStatusHistory)
          .values({ sampleId: row.id, status, comment: null, updatedBy: assigned?.id ?? null });
      }
    }
    const storage = createDiskStorage(join(config.dataDir, 'files'));
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
