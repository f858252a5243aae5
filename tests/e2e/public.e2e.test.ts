import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPage } from '../support/browser';
import { startE2E, stopE2E, visible } from '../support/e2e';
import type { Product } from '../support/product';

let product: Product;
let browser: Browser;
beforeAll(async () => {
  ({ product, browser } = await startE2E());
});
afterAll(() => stopE2E({ product, browser }));

const description = (page: Page) =>
  page.evaluate(() => document.querySelector('meta[name="description"]')?.getAttribute('content') ?? '');

describe('public pages', () => {
  it('landing: hero, stats, about block, three service cards and the calls to action', async () => {
    const { page, context } = await newPage(browser, { baseURL: product.url });
    await page.goto('/');
    await page.getByRole('heading', { level: 1 }).waitFor();
    for (const t of [
      '15+',
      '10,000+',
      '100%',
      '5,000+',
      'Years Experience',
      'Items Valued',
      'Happy Clients',
    ]) {
      await visible(page, t);
    }
    for (const t of ['Expert Valuations', 'Authenticity Verification', 'Condition Assessment']) {
      await page.getByRole('heading', { name: t, level: 3 }).waitFor();
    }
    expect(await page.getByRole('link', { name: 'Learn More' }).getAttribute('href')).toBe('/about');
    expect(await page.getByRole('link', { name: 'Get Started Today' }).getAttribute('href')).toBe('/login');
    // Logged out, 'Submit Your Sample' goes to /login.
    await page.getByRole('link', { name: 'Submit Your Sample' }).click();
    await page.waitForURL('**/login');
    expect(await page.title()).not.toBe('');
    await context.close();
  });

  it('about: story, the three values, mission, team and numbers', async () => {
    const { page, context } = await newPage(browser, { baseURL: product.url });
    await page.goto('/about');
    for (const h of ['Our Story', 'Our Values', 'Our Mission', 'Our Team', 'By the Numbers']) {
      await page.getByRole('heading', { name: h }).waitFor();
    }
    for (const v of ['Honesty', 'Transparency', 'Dedication']) {
      await page.getByRole('heading', { name: v, level: 3 }).waitFor();
    }
    expect(await page.title()).toBe('About Us | Heritage Valuation Laboratory');
    await context.close();
  });

  it('services: six core and three additional services, turnaround, the gallery of 8 and the process', async () => {
    const { page, context } = await newPage(browser, { baseURL: product.url });
    await page.goto('/services');
    for (const s of [
      'Expert Valuations',
      'Authenticity Verification',
      'Condition Assessment',
      'Detailed Reports',
      'Provenance Research',
      'Market Trends Analysis',
      'Secure Handling',
      'Consultation',
      'Restoration Advice',
    ]) {
      await page.getByRole('heading', { name: s, exact: true }).waitFor();
    }
    await visible(page, '7-10 business days');
    await visible(page, '3-5 business days');
    await page.getByText('additional fee').first().waitFor();
    const figures = page.locator('figure');
    expect(await figures.count()).toBe(8);
    const categories = await figures.locator('figcaption .mantine-Badge-label').allTextContents();
    expect(categories.map((c) => c.toLowerCase())).toEqual(
      [
        'Timepieces',
        'Ceramics',
        'Silver & Metalwork',
        'Jewelry',
        'Fine Art',
        'Furniture',
        'Numismatics',
        'Books & Manuscripts',
      ].map((c) => c.toLowerCase()),
    );
    const images = await figures.locator('img').evaluateAll((imgs) =>
      (imgs as HTMLImageElement[]).map((i) => ({
        alt: i.alt,
        loading: i.loading,
        src: new URL(i.src).origin,
      })),
    );
    for (const img of images) {
      expect(img.alt.length).toBeGreaterThan(10);
      expect(img.loading).toBe('lazy');
      expect(img.src).toBe(product.url); // the project's own images, nothing from another site
    }
    // The images load once scrolled into view.
    await figures.last().scrollIntoViewIfNeeded();
    await page.waitForFunction(() =>
      [...document.querySelectorAll('figure img')].every((i) => (i as HTMLImageElement).naturalWidth > 0),
    );
    for (const step of ['Submit', 'Review', 'Evaluate', 'Report']) {
      await page.getByRole('heading', { name: step, exact: true, level: 3 }).waitFor();
    }
    await page.getByText('sends you a quote').waitFor();
    expect(await page.title()).toBe('Services | Heritage Valuation Laboratory');
    expect(await description(page)).toContain('7-10 business days');
    await context.close();
  });

  it('every public page has its own title and meta description', async () => {
    const { page, context } = await newPage(browser, { baseURL: product.url });
    const seen = new Map<string, string>();
    for (const path of ['/', '/about', '/services', '/contact', '/privacy', '/terms', '/cookies', '/nope']) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.waitForFunction(() => document.title.includes('|') || location.pathname === '/');
      const title = await page.title();
      const desc = await description(page);
      expect(desc.length, path).toBeGreaterThan(20);
      seen.set(path, `${title}\n${desc}`);
    }
    expect(new Set(seen.values()).size).toBe(seen.size);
    await context.close();
  });
});

describe('contact', () => {
  it('shows the info card and business hours exactly as documented', async () => {
    const { page, context } = await newPage(browser, { baseURL: product.url });
    await page.goto('/contact');
    await page.getByRole('heading', { name: 'Contact Us', level: 1 }).waitFor();
    for (const t of ['Mon-Fri', '9:00 AM-6:00 PM', 'Sat', '10:00 AM-4:00 PM', 'Sun', 'Closed']) {
      await visible(page, t);
    }
    await page.getByText('by appointment').waitFor();
    await page.getByText('125 Antiquarian Row').first().waitFor();
    await page.getByRole('heading', { name: 'Send us a Message' }).waitFor();
    const options = await page
      .locator('select[name="subject"] option')
      .evaluateAll((os) => (os as HTMLOptionElement[]).map((o) => o.value).filter(Boolean));
    expect(options).toEqual([
      'general-inquiry',
      'valuation-quote',
      'consultation-request',
      'existing-submission',
      'other',
    ]);
    await context.close();
  });

  it('validates, sends, shows the success state and toast, and resets with Send Another Message', async () => {
    const { page, context } = await newPage(browser, { baseURL: product.url });
    await page.goto('/contact');
    await page.getByRole('button', { name: 'Send Message' }).click();
    await page.getByText('First name is required').waitFor();
    await page.getByText('Last name is required').waitFor();
    await page.getByText('Invalid email address').waitFor();
    await page.getByText('Please select a subject').waitFor();
    await page.getByText('Message is required').waitFor();
    // The first invalid field takes the focus.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('firstName');

    await page.getByLabel(/^First Name/).fill('Ada');
    await page.getByLabel(/^Last Name/).fill('Lovelace');
    await page.getByLabel(/^Email/).fill('ada@example.com');
    await page.getByLabel('Phone (optional)').fill('+44 20 7946 0000');
    await page.getByLabel(/^Subject/).selectOption('valuation-quote');
    await page.getByLabel(/^Message/).fill('Please value my Georgian silver teapot.');
    const posted = page.waitForResponse((r) => r.url().endsWith('/api/contact'));
    await page.getByRole('button', { name: 'Send Message' }).click();
    expect((await posted).status()).toBe(201);
    await page.getByRole('heading', { name: 'Message Sent Successfully!' }).waitFor();
    await page.getByText('within 24 hours').first().waitFor();
    const toast = page.getByRole('status').filter({ hasText: 'Message Sent' });
    await toast.getByText("Thank you for your inquiry. We'll get back to you soon!").waitFor();

    await page.getByRole('button', { name: 'Send Another Message' }).click();
    await page.getByRole('heading', { name: 'Send us a Message' }).waitFor();
    expect(await page.getByLabel(/^First Name/).inputValue()).toBe('');
    expect(await page.getByLabel(/^Message/).inputValue()).toBe('');
    await context.close();
  });

  it('shows the failure toast when the server refuses', async () => {
    const { page, context } = await newPage(browser, { baseURL: product.url });
    await page.route('**/api/contact', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: '{"message":"down"}' }),
    );
    await page.goto('/contact');
    await page.getByLabel(/^First Name/).fill('Ada');
    await page.getByLabel(/^Last Name/).fill('Lovelace');
    await page.getByLabel(/^Email/).fill('ada@example.com');
    await page.getByLabel(/^Subject/).selectOption('other');
    await page.getByLabel(/^Message/).fill('Hello');
    await page.getByRole('button', { name: 'Send Message' }).click();
    await page.getByRole('alert').getByText('Failed to send message. Please try again.').waitFor();
    // The form keeps what was typed.
    expect(await page.getByLabel(/^Message/).inputValue()).toBe('Hello');
    await context.close();
  });
});

describe('navigation, footer and 404', () => {
  it('the footer has quick links, services, contact details, social links and legal pages', async () => {
    const { page, context } = await newPage(browser, { baseURL: product.url });
    await page.goto('/');
    const footer = page.locator('footer');
    const quick = footer.getByRole('navigation', { name: 'Quick links' });
    for (const [label, href] of [
      ['Home', '/'],
      ['About', '/about'],
      ['Services', '/services'],
      ['Contact', '/contact'],
    ]) {
      expect(await quick.getByRole('link', { name: label, exact: true }).getAttribute('href')).toBe(href);
    }
    await footer.getByText('Provenance Research').waitFor();
    await footer.getByText('125 Antiquarian Row, Suite 400, Boston, MA 02108').waitFor();
    expect(await footer.getByRole('link', { name: '+1 (617) 555-0142' }).getAttribute('href')).toBe(
      'tel:+16175550142',
    );
    await footer.getByRole('link', { name: 'info@heritagevaluationlab.com' }).waitFor();
    for (const s of ['Facebook', 'Instagram', 'LinkedIn', 'X (Twitter)']) {
      await footer.getByRole('link', { name: s }).waitFor();
    }
    for (const [label, path, heading] of [
      ['Privacy Policy', '/privacy', 'Privacy Policy'],
      ['Terms of Service', '/terms', 'Terms of Service'],
      ['Cookies', '/cookies', 'Cookies'],
    ] as const) {
      // The page's lazy sections and images settle first: a late layout shift moved the footer
      // between Playwright's hit test and the click once, and the click missed the link.
      await page.waitForLoadState('networkidle');
      await footer.getByRole('link', { name: label }).click();
      await page.waitForURL(`**${path}`);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
    }
    // The cookies page states what the browser keeps.
    await page.getByText('does not use tracking').waitFor();
    await page.getByText('Sign-in token').waitFor();
    await context.close();
  });

  it('the mobile menu works at 375 px, and pages do not scroll sideways', async () => {
    const { page, context } = await newPage(browser, { baseURL: product.url, width: 375, height: 800 });
    for (const path of ['/', '/about', '/services', '/contact', '/privacy']) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
    await page.goto('/');
    await page.getByRole('button', { name: 'Toggle navigation menu' }).click();
    const mobile = page.getByRole('navigation', { name: 'Mobile' });
    await mobile.getByRole('link', { name: 'Contact', exact: true }).click();
    await page.waitForURL('**/contact');
    await page.getByRole('heading', { name: 'Contact Us', level: 1 }).waitFor();
    await context.close();
  });

  it('works by keyboard: skip link first, then focus is visible on the links', async () => {
    const { page, context } = await newPage(browser, { baseURL: product.url });
    await page.goto('/');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to main content');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      const style = getComputedStyle(el);
      return { inMain: Boolean(el.closest('main')), outline: style.outlineStyle, width: style.outlineWidth };
    });
    expect(focused.inMain).toBe(true);
    expect(focused.outline).not.toBe('none');
    expect(Number.parseFloat(focused.width)).toBeGreaterThan(0);
    await context.close();
  });

  it('an unknown path shows the 404 page with a way home', async () => {
    const { page, context } = await newPage(browser, { baseURL: product.url });
    await page.goto('/no/such/page');
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    await page.getByText('Did you forget to add the page to the router?').waitFor();
    expect(await page.title()).toBe('Page Not Found | Heritage Valuation Laboratory');
    await page.getByRole('link', { name: 'Go Home' }).click();
    await page.waitForURL(`${product.url}/`);
    await context.close();
  });
});
