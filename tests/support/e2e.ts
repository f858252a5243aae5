import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { type BrowserKind, launchBrowser } from './browser';
import { type Product, startProduct } from './product';

// What every end-to-end file does around its journeys: start the built product and Chromium together,
// stop both at the end. Setting the scene over HTTP uses ./http.ts (`callOk`, `loginToken`,
// `registerAccount`) and ./factories.ts (`submitSample`, `issueReport`).

export type E2E = { product: Product; browser: Browser };

/**
 * Starts the built product (with `env`) and a headless Chromium side by side: the headless shell,
 * or the full browser for a file that opens a PDF in its own tab (`browser: 'full'`, ./browser.ts).
 */
export async function startE2E(
  env: Record<string, string> = {},
  opts: { browser?: BrowserKind } = {},
): Promise<E2E> {
  const [product, browser] = await Promise.all([startProduct(env), launchBrowser(opts.browser ?? 'shell')]);
  return { product, browser };
}

/** Stops what `startE2E` started; tolerates a start that failed half-way. */
export async function stopE2E(e2e: Partial<E2E> | undefined): Promise<void> {
  await e2e?.browser?.close();
  await e2e?.product?.stop();
}

/** Waits until `text` (exact, or a pattern) is visible somewhere on the page. */
export const visible = (page: Page, text: string | RegExp, timeout?: number) =>
  page
    .getByText(text, { exact: typeof text === 'string' })
    .first()
    .waitFor({ state: 'visible', timeout });

/**
 * Opens a tab of a tab list and waits until it is the selected one. Content above the admin
 * dashboard's tabs (the lazily loaded charts) can push them down between Playwright's position check
 * and its click, so a click may land beside the tab; it is clicked again until the tab is selected.
 */
export async function selectTab(page: Page, name: string, timeout = 30_000): Promise<void> {
  const tab = page.getByRole('tab', { name });
  const until = Date.now() + timeout;
  for (;;) {
    await tab.click({ timeout: Math.max(1, until - Date.now()) });
    try {
      await tab.and(page.locator('[aria-selected="true"]')).waitFor({ timeout: 2_000 });
      return;
    } catch (err) {
      if (Date.now() > until) throw err;
    }
  }
}

/**
 * Where `shot` saves its pictures: E2E_SHOTS_DIR, or nowhere. The journeys' screenshots are for a person
 * looking at a screen after a change (README.md, "Testing"); no test reads them, and each costs Chromium a
 * full paint and a PNG encode, so an ordinary run does not take them.
 */
const SHOTS_DIR = process.env.E2E_SHOTS_DIR;

/**
 * Saves a screenshot as `<E2E_SHOTS_DIR>/<name>.png`: of one element, or of a page (the whole page, or
 * only what the window shows with `fullPage: false`).
 */
export async function shot(target: Page | Locator, name: string, opts: { fullPage?: boolean } = {}) {
  if (!SHOTS_DIR) return;
  const path = join(SHOTS_DIR, `${name}.png`);
  if ('goto' in target) await target.screenshot({ path, fullPage: opts.fullPage ?? true });
  else await target.screenshot({ path });
}

/** Whether `shot` saves anything: for steps that exist only to frame a screenshot (a viewport change). */
export const takingShots = () => SHOTS_DIR !== undefined;

/** Full-page screenshots at 1366 and at 375 px (`<name>-1366`, `<name>-375`); the page is left at 1366. */
export async function shotBothWidths(page: Page, name: string): Promise<void> {
  if (!SHOTS_DIR) return;
  for (const width of [1366, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await shot(page, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}
