// Ad-hoc look at a page: node scripts/screenshot.mjs URL out.png [width] [token]
import { chromium } from 'playwright-core';

const [url, out, width = '1280', token] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
const page = await browser.newPage({ viewport: { width: Number(width), height: 900 } });
if (token) {
  await page.goto(new URL('/about', url).href);
  await page.evaluate((t) => localStorage.setItem('token', t), token);
}
await page.goto(url, { waitUntil: 'networkidle' });
await page.waitForTimeout(500);
await page.screenshot({ path: out, fullPage: true });
await browser.close();
console.log(out);
