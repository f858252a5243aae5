import type { Browser, Page } from 'playwright-core';
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
