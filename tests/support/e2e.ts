import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './browser';
import { type Product, startProduct } from './product';

// What every end-to-end file does around its journeys: start the built product and Chromium together,
// stop both at the end. Setting the scene over HTTP uses ./http.ts (`callOk`, `loginToken`,
// `registerAccount`) and ./factories.ts (`submitSample`, `issueReport`).

export type E2E = { product: Product; browser: Browser };

/** Starts the built product (with `env`) and a headless Chromium side by side. */
export async function startE2E(env: Record<string, string> = {}): Promise<E2E> {
  const [product, browser] = await Promise.all([startProduct(env), launchBrowser()]);
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
