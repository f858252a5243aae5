import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import {
  DEFAULT_LAB_NAME,
  LAB_CONTACT_EMAIL,
  LAB_FIXED_ADDRESS,
  LAB_FIXED_PHONE,
} from '../../common/domain/reports';
import { users } from '../db/schema';
import { writeLabSettings } from '../modules/lab/lab.queries';
import { draftQuote } from '../modules/quotes/quote-flow';
import { insertQuote, syncSampleQuote } from '../modules/quotes/quotes.queries';
import { priceSettingsValues } from '../modules/quotes/price-list';
import type { DemoSeedContext } from './demo-extras';

// The demo lab as a real Boston lab would have set it up (docs/decisions/0014-fit-and-finish.md): its
// details and a US-dollar price list with payment instructions; each analyst's signature on file, so
// every PDF is signed by hand as well; and the quote every sample past submission was priced and
// accepted with, before its work started.

const DAY = 86_400_000;

/** The lab's settings, saved once: what its public site, invoices and reports print. */
export async function seedDemoLabSettings(ctx: DemoSeedContext): Promise<void> {
  await writeLabSettings(ctx.db, {
    labName: DEFAULT_LAB_NAME,
    address: LAB_FIXED_ADDRESS,
    phone: LAB_FIXED_PHONE,
    email: LAB_CONTACT_EMAIL,
    website: 'https://heritagevaluationlab.com',
    certificationNumber: 'ASA-PP-2291',
    paymentInstructions:
      'Bank transfer to Beacon Street Bank, Boston MA\nAccount 0012 3456 789, ABA routing 011000028\nPayment is due within 30 days of the invoice date.',
    paymentLink: 'https://pay.heritagevaluationlab.com/invoices',
    ...priceSettingsValues(
      {
        prices: {
          expertValuation: 250,
          authenticityCheck: 180,
          conditionAssessment: 120,
          provenanceResearch: 350,
        },
        urgentSurchargePercent: 50,
        currency: 'USD',
      },
      undefined,
    ),
  });
}

/** A hand-written signature drawn for one analyst: their name in an italic script, ink on clear. */
function drawSignature(name: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="520" height="140" viewBox="0 0 520 140">
  <text x="20" y="92" font-family="DejaVu Serif, serif" font-style="italic" font-size="54" fill="#1d2b4f"
    transform="rotate(-4 260 70)">${name}</text>
  <path d="M30 112 C 160 96, 300 124, 480 100" fill="none" stroke="#1d2b4f" stroke-width="3" stroke-linecap="round"/>
</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** Every analyst signs: the image is stored as a profile upload would be. */
export async function seedDemoSignatures(ctx: DemoSeedContext): Promise<void> {
  for (const person of ctx.staff) {
    const name = [person.firstName, person.lastName].filter(Boolean).join(' ');
    const key = `signature/${randomBytes(16).toString('hex')}.png`;
    await ctx.storage.put(key, await drawSignature(name));
    await ctx.db.update(users).set({ signature: key }).where(eq(users.id, person.id));
  }
}

/**
 * The quote of every sample the lab has started on: drafted from the price list the day after
 * submission by its analyst, accepted the same day, and paid once the report was out.
 */
export async function seedDemoQuotes(ctx: DemoSeedContext): Promise<void> {
  for (const sample of ctx.samples) {
    if (sample.status === 'submitted') continue;
    const sentAt = new Date(sample.submissionDate.getTime() + DAY / 4);
    const answeredAt = new Date(sentAt.getTime() + DAY / 8);
    const draft = await draftQuote(ctx.db, sample, sentAt);
    const completed = sample.status === 'completed';
    const quote = await insertQuote(ctx.db, {
      sampleId: sample.id,
      status: 'accepted',
      lines: draft.lines,
      totalMinor: draft.totalMinor,
      currency: draft.currency,
      validUntil: draft.validUntil,
      note: 'Includes insured return shipping within the continental US.',
      sentBy: sample.assignedStaffId,
      sentAt,
      answeredAt,
      ...(completed
        ? {
            paidAt: new Date(answeredAt.getTime() + 2 * DAY),
            paidReference: `ACH ${String(sample.id).padStart(6, '0')}`,
          }
        : {}),
    });
    await syncSampleQuote(ctx.db, quote);
  }
}
