import { expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parse } from 'csv-parse/sync';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { CHROMIUM_PATH, CHROMIUM_SHELL_PATH, isCi, loud, programInstalled } from './programs';

export { CHROMIUM_PATH };
export const chromiumAvailable = () => programInstalled(CHROMIUM_PATH);

// The args that work on this Debian Chromium; without the networking ones Chromium keeps dialling out.
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/**
 * Which Chromium drives a page. 'shell' is chromium-headless-shell: Chromium's own headless build (the
 * one Playwright itself runs headless tests in), with the same Blink and V8 as the browser but without
 * its display compositor, so a journey costs about half the CPU (README.md, "Testing"). It has no PDF
 * viewer: a PDF opened in a new tab is downloaded and the tab stays on about:blank. 'full' is the
 * browser people use: for the journeys that check a report opening in its own tab, for the benchmarks
 * (LCP as a browser paints it) and for the screenshots.
 */
export type BrowserKind = 'full' | 'shell';

let warnedNoShell = false;

export function launchBrowser(kind: BrowserKind = 'full'): Promise<Browser> {
  let executablePath = CHROMIUM_PATH;
  if (kind === 'shell') {
    if (programInstalled(CHROMIUM_SHELL_PATH)) executablePath = CHROMIUM_SHELL_PATH;
    else if (isCi())
      throw new Error(
        `Chromium headless shell (${CHROMIUM_SHELL_PATH}) is missing: apt-get install chromium-headless-shell; CI=true must not run the journeys without it.`,
      );
    else if (!warnedNoShell) {
      warnedNoShell = true;
      loud(
        `Chromium headless shell (${CHROMIUM_SHELL_PATH}) is missing: the journeys run in the full Chromium, about twice as slow. apt-get install chromium-headless-shell`,
      );
    }
  }
  return chromium.launch({ executablePath, args: ARGS, headless: true });
}

export async function newPage(
  browser: Browser,
  opts: { baseURL: string; width?: number; height?: number },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: opts.baseURL,
    viewport: { width: opts.width ?? 1280, height: opts.height ?? 900 },
    acceptDownloads: true,
  });
  const page = await context.newPage();
  return { context, page };
}

/**
 * Stores a session token where the web app keeps it (localStorage), so that the next page the test
 * opens starts signed in. It is written on a page of the same origin that is not the app (the health
 * check's JSON): opening the app itself only to write one key cost a cold start of its JavaScript in
 * every signed-in journey.
 */
export async function storeToken(page: Page, token: string): Promise<void> {
  await page.goto('/api/health');
  await page.evaluate((t) => localStorage.setItem('token', t), token);
}

/** A page in a context of its own: signed in with `token`, or signed out when it is null. */
export async function sessionPage(
  browser: Browser,
  opts: { baseURL: string; token: string | null; width?: number; height?: number },
): Promise<{ context: BrowserContext; page: Page }> {
  const opened = await newPage(browser, opts);
  if (opts.token) await storeToken(opened.page, opts.token);
  return opened;
}

/** Logs in through the API and stores the token as the web app would. */
export async function loginAs(page: Page, baseURL: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${baseURL}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`login failed: ${res.status}`);
  const { token } = (await res.json()) as { token: string };
  await storeToken(page, token);
  return token;
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export type AxeViolation = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] };

/** Runs axe-core in the page (evaluate is not subject to the page's CSP); serious and critical only. */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  // A toast or a dialog fading in or out is drawn half transparent: axe would measure the contrast
  // of that frame, not of the page. Wait (at most 3 s) until no finite animation or transition is
  // running (a spinner's endless one does not count); the page as it settles is then checked.
  await page
    .waitForFunction(
      () =>
        document
          .getAnimations()
          .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity),
      undefined,
      { timeout: 3000 },
    )
    .catch(() => undefined);
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- axe is injected at run time
    const result = await (window as any).axe.run(document, { resultTypes: ['violations'] });
    return result.violations as AxeViolation[];
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** An axe violation in one line: the rule, its help text and the elements it found. */
const describeViolation = (v: AxeViolation) =>
  `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`;

/** Fails the test on any serious or critical axe violation, naming each (rule, help, elements). */
export async function expectNoSeriousAxeViolations(page: Page): Promise<void> {
  expect((await seriousAxeViolations(page)).map(describeViolation)).toEqual([]);
}

/**
 * Clicks the button named `name` (Export CSV, for instance), waits for the download it starts, and
 * answers the file's suggested name and its rows, each keyed by the CSV's header.
 */
export async function downloadCsv(
  page: Page,
  name: string,
): Promise<{ fileName: string; rows: Record<string, string>[] }> {
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 30_000 }),
    page.getByRole('button', { name }).click(),
  ]);
  const rows = parse(readFileSync(await download.path()), { columns: true }) as Record<string, string>[];
  return { fileName: download.suggestedFilename(), rows };
}
