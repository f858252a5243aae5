import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heicFixture, rotatedJpeg, transparentPng } from '../fixtures/photos';
import { launchBrowser, loginAs, newPage, seriousAxeViolations } from '../support/browser';
import { E2E_ADMIN, type Product, startProduct } from '../support/product';
import { selectTab } from '../support/e2e';

// A phone's photos (docs/product/photos.md): an EXIF-rotated JPEG and a HEIC, previewed before the
// upload, then shown upright in the sample page's gallery and its keyboard-driven viewer.

let product: Product;
let browser: Browser;
let files: { jpeg: string; heic: string; png: string };

const visible = (page: Page, text: string | RegExp) =>
  page
    .getByText(text, { exact: typeof text === 'string' })
    .first()
    .waitFor({ state: 'visible', timeout: 10_000 });

/** Size and the colour at the top and the bottom centre of a drawn image. */
function drawn(img: Locator) {
  return img.evaluate((el: HTMLImageElement) => {
    const canvas = document.createElement('canvas');
    canvas.width = el.naturalWidth;
    canvas.height = el.naturalHeight;
    const ctx = canvas.getContext('2d') as CanvasRenderingContext2D;
    ctx.drawImage(el, 0, 0);
    const at = (y: number) => Array.from(ctx.getImageData(Math.floor(el.naturalWidth / 2), y, 1, 1).data);
    return {
      width: el.naturalWidth,
      height: el.naturalHeight,
      top: at(2),
      bottom: at(el.naturalHeight - 3),
    };
  });
}
const red = ([r, , b]: number[]) => (r ?? 0) > 150 && (b ?? 255) < 100;
const blue = ([r, , b]: number[]) => (b ?? 0) > 150 && (r ?? 255) < 100;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'vl-photos-'));
  files = { jpeg: join(dir, 'rotated.jpg'), heic: join(dir, 'phone.heic'), png: join(dir, 'extra.png') };
  writeFileSync(files.jpeg, await rotatedJpeg(600, 400));
  writeFileSync(files.heic, heicFixture());
  writeFileSync(files.png, await transparentPng());
  // A first start (database, signing keys) can take long on a busy machine.
  [product, browser] = await Promise.all([
    startProduct({}, { startTimeoutMs: 170_000 }),
    launchBrowser('shell'),
  ]);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

describe('photos from a phone', () => {
  it('previews before upload (HEIC placeholder, remove), then the gallery shows both upright, by keyboard too', async () => {
    const email = 'phone@collector.test';
    const reg = await fetch(`${product.url}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'customer-pass-1', firstName: 'Pia', lastName: 'Phone' }),
    });
    expect(reg.status).toBe(201);
    const { page, context } = await newPage(browser, { baseURL: product.url });
    await loginAs(page, product.url, email, 'customer-pass-1');

    await page.goto('/submit-sample');
    await page.getByRole('heading', { name: 'Submit Sample' }).waitFor();
    await page.fill('form [name="submitterName"]', 'Pia Phone');
    await page.fill('form [name="submitterEmail"]', email);
    await page.fill('form [name="itemName"]', 'Meissen Figurine');
    await page.selectOption('form [name="category"]', 'furniture-decorative');
    await page.fill('form [name="description"]', 'Porcelain shepherdess.');
    await page.getByLabel('Expert Valuation').check();
    await page.setInputFiles('form input[name="photos"]', [files.jpeg, files.heic, files.png]);

    // Thumbnails before anything is sent: the JPEG drawn by the browser, the HEIC as a clear placeholder.
    const jpegPreview = page.getByRole('img', { name: 'rotated.jpg', exact: true });
    await jpegPreview.waitFor();
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll('img[alt="rotated.jpg"]')).some(
        (i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0,
      ),
    );
    await page.getByRole('img', { name: 'phone.heic: HEIC photo, preview after upload' }).waitFor();
    await visible(page, 'HEIC photo');
    await page.getByRole('img', { name: 'extra.png', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Remove extra.png' }).click();
    expect(await page.getByRole('img', { name: 'extra.png', exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Remove / }).count()).toBe(2);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Submit for Review' }).click();
    await page.waitForURL('**/dashboard');
    // The dashboard's thumbnail fills in by itself once the copies are made.
    const row = page.getByRole('row', { name: /Meissen Figurine/ });
    await row.locator('img[data-photo-state="ready"]').waitFor({ timeout: 30_000 });

    await row.getByRole('link', { name: /View/ }).click();
    await page.waitForURL(/\/sample\/\d+$/);
    const gallery = page.getByRole('region', { name: 'Photos' });
    await gallery.locator('img[data-photo-state="ready"]').nth(1).waitFor({ timeout: 30_000 });
    expect(await gallery.locator('[data-photo-state]').count()).toBe(2);

    // Upright: the rotated JPEG is portrait with its red half on top; the HEIC landscape, as shot.
    const jpegThumb = await drawn(gallery.getByRole('img', { name: 'rotated.jpg' }));
    expect(jpegThumb.height).toBeGreaterThan(jpegThumb.width);
    expect(red(jpegThumb.top) && blue(jpegThumb.bottom)).toBe(true);
    const heicThumb = await drawn(gallery.getByRole('img', { name: 'phone.heic' }));
    expect([heicThumb.width, heicThumb.height]).toEqual([96, 64]);
    expect(await seriousAxeViolations(page)).toEqual([]);

    // The viewer: display copy, caption with name and size, arrows to move, Escape to close.
    await page.getByRole('button', { name: 'Open photo 1 of 2: rotated.jpg' }).click();
    const viewer = page.getByRole('dialog', { name: 'Photo 1 of 2' });
    await viewer.waitFor();
    const large = viewer.locator('img[data-photo-state="ready"]');
    await large.waitFor();
    const shown = await drawn(large);
    expect([shown.width, shown.height]).toEqual([400, 600]);
    expect(red(shown.top)).toBe(true);
    expect(await viewer.getByTestId('photo-caption').textContent()).toMatch(/^rotated\.jpg · \d+\.\d KB$/);
    expect(await viewer.getByRole('button', { name: 'Download original' }).isVisible()).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.keyboard.press('ArrowRight');
    await page.getByRole('dialog', { name: 'Photo 2 of 2' }).waitFor();
    expect(await page.getByTestId('photo-caption').textContent()).toMatch(/^phone\.heic · /);
    await page.keyboard.press('ArrowRight');
    await page.getByRole('dialog', { name: 'Photo 1 of 2' }).waitFor();
    await page.keyboard.press('ArrowLeft');
    await page.getByRole('dialog', { name: 'Photo 2 of 2' }).waitFor();
    await page.getByRole('button', { name: 'Previous photo' }).click();
    await page.getByRole('dialog', { name: 'Photo 1 of 2' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await context.close();

    // The lab's lists show the same first photo, upright: the work list and the admin's Samples tab.
    const lab = await browser.newContext({ baseURL: product.url, viewport: { width: 1366, height: 900 } });
    const labPage = await lab.newPage();
    await loginAs(labPage, product.url, E2E_ADMIN.email, E2E_ADMIN.password);
    for (const open of [
      () => labPage.goto('/staff'),
      async () => {
        await labPage.goto('/admin');
        await selectTab(labPage, 'Samples');
      },
    ]) {
      await open();
      const labRow = labPage.getByRole('row', { name: /Meissen Figurine/ });
      const thumb = labRow.getByRole('img', { name: 'Photo of Meissen Figurine' });
      await labRow.locator('img[data-photo-state="ready"]').waitFor({ timeout: 30_000 });
      const listed = await drawn(thumb);
      expect(listed.height).toBeGreaterThan(listed.width);
      expect(red(listed.top) && blue(listed.bottom)).toBe(true);
      expect(await seriousAxeViolations(labPage)).toEqual([]);
    }
    await lab.close();
  });
  it('a photo still being prepared, or without a preview, names that state on its button as it shows it', async () => {
    const { page, context } = await newPage(browser, { baseURL: product.url });
    await loginAs(page, product.url, 'phone@collector.test', 'customer-pass-1');
    // The sample page as it can be right after a submission: the first photo's copies are still being
    // made, and the second has no preview to show.
    await page.route(/\/api\/samples\/\d+$/, async (route) => {
      const answer = await route.fetch();
      const body = (await answer.json()) as {
        files: { fileCategory: string; processing: boolean; thumbnailUrl: string | null }[];
      };
      const photos = body.files.filter((f) => f.fileCategory === 'photo');
      Object.assign(photos[0] ?? {}, { processing: true, thumbnailUrl: null });
      Object.assign(photos[1] ?? {}, { processing: false, thumbnailUrl: null });
      await route.fulfill({ response: answer, json: body });
    });
    await page.goto('/dashboard');
    await page
      .getByRole('row', { name: /Meissen Figurine/ })
      .getByRole('link', { name: /View/ })
      .click();
    await page.waitForURL(/\/sample\/\d+$/);
    const gallery = page.getByRole('region', { name: 'Photos' });
    await gallery.getByText('Preparing photo…').waitFor();
    await gallery.getByText('Preview unavailable').waitFor();
    await gallery
      .getByRole('button', { name: 'Open photo 1 of 2: rotated.jpg — Preparing photo…', exact: true })
      .waitFor();
    await gallery
      .getByRole('button', { name: 'Open photo 2 of 2: phone.heic — Preview unavailable', exact: true })
      .waitFor();
    // What a button shows is part of its name (WCAG 2.5.3): axe's label-content-name-mismatch passes.
    const violations = await seriousAxeViolations(page);
    expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`)).toEqual(
      [],
    );
    await context.close();
  });
});
