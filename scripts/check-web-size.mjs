// The public pages' JavaScript budget (docs/benchmarks.md, "Public pages"), checked on a build: for
// each page, the entry chunk and every chunk it imports, plus the page's own chunk and its imports,
// gzip -9 as a compressing proxy would send them. Fails when a page loads more than the budget.
// Reads $DIST_DIR/web-chunks.json (written by vite.config.ts's chunk-graph plugin); run after
// `npm run build`. `npm test` runs it on the build its e2e step uses. Sizes only, never timings.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const BUDGET_KB = 150;

/**
 * Every page a visitor reaches without signing in (web/app/routes.tsx), with the module its route
 * renders for a visitor. scripts/check-web-size.test.mjs fails when routes.tsx has a public route that
 * is missing here.
 */
export const PUBLIC_PAGES = {
  '/': 'web/features/public/components/LandingPage.tsx',
  '/about': 'web/features/public/components/AboutPage.tsx',
  '/services': 'web/features/public/components/ServicesPage.tsx',
  '/contact': 'web/features/contact/components/ContactPage.tsx',
  '/verify-report': 'web/features/verify/components/VerifyReportPage.tsx',
  '/verify-schedule': 'web/features/schedules/components/screens.ts',
  '/privacy': 'web/features/public/components/LegalPage.tsx',
  '/terms': 'web/features/public/components/LegalPage.tsx',
  '/cookies': 'web/features/public/components/LegalPage.tsx',
  '/login': 'web/features/accounts/components/LoginPage.tsx',
  '/register': 'web/features/accounts/components/RegisterPage.tsx',
  '/forgot-password': 'web/features/accounts/components/ForgotPasswordPage.tsx',
  '/reset-password': 'web/features/accounts/components/ResetPasswordPage.tsx',
  '/verify-email': 'web/features/accounts/components/MailLinkPage.tsx',
  '/unsubscribe': 'web/features/accounts/components/MailLinkPage.tsx',
  // Any unknown path: the not-found screen is part of the entry chunk.
  '/*': null,
};

/** The chunk files a page loads at once: the entry's static imports and the page chunk's, transitively. */
export function chunksForPage(chunks, pageSource) {
  const byFile = new Map(chunks.map((c) => [c.file, c]));
  const entry = chunks.find((c) => c.isEntry);
  if (!entry) throw new Error('no entry chunk in the chunk graph');
  const roots = [entry];
  if (pageSource) {
    const page = chunks.find((c) => c.source === pageSource);
    if (!page)
      throw new Error(`no chunk starts at ${pageSource}: is it still lazily loaded by web/app/routes.tsx?`);
    roots.push(page);
  }
  const seen = new Set();
  const visit = (chunk) => {
    if (seen.has(chunk.file)) return;
    seen.add(chunk.file);
    for (const f of chunk.imports) {
      const next = byFile.get(f);
      if (!next) throw new Error(`${chunk.file} imports ${f}, which is not in the chunk graph`);
      visit(next);
    }
  };
  roots.forEach(visit);
  return [...seen].sort();
}

/** Each public page's gzip kilobytes and files; `over` lists the pages above the budget. */
export function measurePages(distDir) {
  const graphFile = join(distDir, 'web-chunks.json');
  if (!existsSync(graphFile)) throw new Error(`${graphFile} is missing: run \`npm run build\` first`);
  const chunks = JSON.parse(readFileSync(graphFile, 'utf8'));
  const gzipBytes = new Map();
  const sizeOf = (file) => {
    if (!gzipBytes.has(file)) {
      gzipBytes.set(file, gzipSync(readFileSync(join(distDir, 'web', file)), { level: 9 }).length);
    }
    return gzipBytes.get(file);
  };
  const pages = Object.entries(PUBLIC_PAGES).map(([path, source]) => {
    const files = chunksForPage(chunks, source);
    const kb = files.reduce((sum, f) => sum + sizeOf(f), 0) / 1024;
    return { path, kb, files };
  });
  return { pages, over: pages.filter((p) => p.kb > BUDGET_KB) };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const distDir = resolve(process.env.DIST_DIR ?? 'dist');
  const { pages, over } = measurePages(distDir);
  for (const p of pages) {
    console.log(
      `${p.path.padEnd(18)} ${p.kb.toFixed(1).padStart(6)} KB gzip JavaScript, ${p.files.length} files`,
    );
  }
  if (over.length) {
    const worst = over[0];
    console.error(
      `\nOver budget: ${over.map((p) => `${p.path} (${p.kb.toFixed(1)} KB)`).join(', ')}.\n` +
        `${worst.path} loads: ${worst.files.join(', ')}.\n` +
        'Load what a visitor does not need at once lazily (web/app/routes.tsx, web/features/*/lazy.tsx), ' +
        "import messages and lists from files without zod (common/contracts/*-constants.ts), and check forms' " +
        'schemas through lazyContract (web/lib/forms.ts).',
    );
    process.exit(1);
  }
  console.log(`public pages: each within ${BUDGET_KB} KB gzip of JavaScript`);
}
