// `npm run screenshots`: the README's pictures, made from the real product with demo data.
// Build first (`npm run build`; DIST_DIR selects another build folder). The script seeds a fresh
// temporary DATA_DIR with `seed:demo`, starts the built product on a free port, drives Chromium
// through the main screens and writes PNGs into docs/screenshots/ (a report's first PDF page via
// pdftoppm).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { randomDemoPassword, seedDemo } from '../server/seed/demo';
import { launchBrowser } from '../tests/support/browser';
import { startProduct } from '../tests/support/product';

const OUT = resolve('docs/screenshots');
const ADMIN = 'admin@demo.lab';
const STAFF = 'eleanor.staff@demo.lab';
const CUSTOMERS = ['olivia@demo.lab', 'james@demo.lab', 'sofia@demo.lab'];

async function main() {
  const dist = resolve(process.env.DIST_DIR ?? 'dist');
  if (!existsSync(join(dist, 'server/main.js'))) {
    console.error(`No build at ${dist}: run \`npm run build\` first.`);
    process.exit(1);
  }
  mkdirSync(OUT, { recursive: true });
  const dataDir = mkdtempSync(join(tmpdir(), 'vl-screens-'));
  const adminPassword = randomDemoPassword();
  const env = { ADMIN_EMAIL: ADMIN, ADMIN_PASSWORD: adminPassword, RATE_LIMITS: 'off' };
  const seeded = await seedDemo({
    ...process.env,
    ...env,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
  });
  // The demo accounts' passwords are random: the admin's is ours, the others come from the seed.
  const passwords = new Map<string, string>([[ADMIN, adminPassword]]);
  for (const l of seeded.seeded ? seeded.logins : []) if (l.password) passwords.set(l.email, l.password);
  const product = await startProduct(env, { dataDir });
  const browser = await launchBrowser();

  const token = async (email: string) => {
    const res = await fetch(`${product.url}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: passwords.get(email) }),
    });
    if (!res.ok) throw new Error(`login ${email}: ${res.status}`);
    return ((await res.json()) as { token: string }).token;
  };

  async function shoot(
    name: string,
    path: string,
    opts: {
      as?: string;
      width?: number;
      height?: number;
      full?: boolean;
      before?: (p: Page) => Promise<void>;
    } = {},
  ) {
    const context = await browser.newContext({
      viewport: { width: opts.width ?? 1280, height: opts.height ?? 860 },
      deviceScaleFactor: 1,
    });
    const page = await context.newPage();
    if (opts.as) {
      const t = await token(opts.as);
      await page.goto(`${product.url}/about`);
      await page.evaluate((v) => localStorage.setItem('token', v), t);
    }
    await page.goto(`${product.url}${path}`, { waitUntil: 'networkidle' });
    await page.waitForFunction(() => !document.querySelector('main')?.textContent?.includes('Loading...'));
    // Lazy images load once scrolled into view.
    await page.evaluate(async () => {
      for (let y = 0; y < document.body.scrollHeight; y += 600) {
        window.scrollTo(0, y);
        await new Promise((r) => setTimeout(r, 60));
      }
      window.scrollTo(0, 0);
    });
    await opts.before?.(page);
    await page.waitForTimeout(500);
    const file = join(OUT, `${name}.png`);
    await page.screenshot({ path: file, fullPage: opts.full ?? false });
    console.log(`  ${file}`);
    await context.close();
  }

  try {
    // A completed sample with an issued report, for the verification page and the PDF.
    let reportCode = '';
    let customer = CUSTOMERS[0] as string;
    let customerToken = '';
    for (const email of CUSTOMERS) {
      const t = await token(email);
      const res = await fetch(`${product.url}/api/samples`, { headers: { authorization: `Bearer ${t}` } });
      const list = (await res.json()) as { reportCode: string | null }[];
      const withReport = list.find((s) => s.reportCode);
      if (withReport?.reportCode) {
        reportCode = withReport.reportCode;
        customer = email;
        customerToken = t;
        break;
      }
    }

    console.log('Screenshots:');
    await shoot('landing', '/');
    await shoot('landing-mobile', '/', { width: 375, height: 812 });
    await shoot('services-gallery', '/services', {
      before: async (page) => {
        await page
          .getByRole('heading', { name: 'What We Value' })
          .evaluate((h) => window.scrollTo(0, h.getBoundingClientRect().top + window.scrollY - 90));
      },
    });
    await shoot('contact', '/contact');
    await shoot('submit-sample', '/submit-sample', { as: customer, full: true });
    await shoot('client-dashboard', '/dashboard', { as: customer, full: true });
    await shoot('staff-report-dialog', '/staff', {
      as: STAFF,
      height: 1000,
      before: async (page) => {
        await page.getByRole('button', { name: 'Generate Report' }).first().click();
        await page.getByRole('dialog').waitFor();
      },
    });
    await shoot('admin-dashboard', '/admin', { as: ADMIN, full: true });
    if (reportCode) {
      await shoot('verification', `/verify-report?code=${reportCode}`, {
        full: true,
        before: async (page) => {
          await page.getByText('Authentic Report Verified').first().waitFor({ timeout: 15_000 });
        },
      });
      const pdf = await fetch(`${product.url}/api/report/${reportCode}/pdf`, {
        headers: { authorization: `Bearer ${customerToken}` },
      });
      if (!pdf.ok) throw new Error(`report PDF: ${pdf.status}`);
      const pdfFile = join(dataDir, 'report.pdf');
      writeFileSync(pdfFile, Buffer.from(await pdf.arrayBuffer()));
      execFileSync('pdftoppm', [
        '-png',
        '-r',
        '90',
        '-f',
        '1',
        '-l',
        '1',
        '-singlefile',
        pdfFile,
        join(OUT, 'report-pdf'),
      ]);
      console.log(`  ${join(OUT, 'report-pdf.png')}`);
    } else {
      console.warn('No issued report in the demo data: verification and PDF screenshots skipped.');
    }
  } finally {
    await browser.close();
    await product.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
