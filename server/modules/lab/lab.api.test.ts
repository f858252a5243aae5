import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LabSettings } from '../../../common/contracts/lab';
import { labSettings } from '../../db/schema';
import { call, createUser, startTestApp, type TestApp, type TestUser } from '../../../tests/support/test-app';
import { DEFAULT_CERTIFICATION, DEFAULT_LIMITING_CONDITIONS } from '../../../common/domain/appraisal';

const fixture = (name: string) => readFileSync(new URL(`../../../tests/fixtures/${name}`, import.meta.url));

let t: TestApp;
let admin: TestUser;
let staff: TestUser;
let customer: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  [admin, staff, customer] = await Promise.all([
    createUser(t, { role: 'admin' }),
    createUser(t, { role: 'staff' }),
    createUser(t, { role: 'user' }),
  ]);
});
afterAll(async () => {
  await t?.close();
});

function settingsForm(settings: unknown, logo?: { bytes: Buffer; name: string; type: string }) {
  const form = new FormData();
  form.append('settings', typeof settings === 'string' ? settings : JSON.stringify(settings));
  if (logo) form.append('logo', new Blob([new Uint8Array(logo.bytes)], { type: logo.type }), logo.name);
  return form;
}

const valid = {
  labName: 'Harbor Valuation Lab',
  address: '1 Quay Street',
  phone: '',
  email: 'lab@example.com',
  website: 'https://lab.example.com',
  certificationNumber: 'CERT-42',
};

describe('/api/lab/settings', () => {
  it('matrix: anonymous 401, customer and staff 403, admin 200 (empty settings are nulls)', async () => {
    expect((await call(t, 'GET', '/api/lab/settings')).status).toBe(401);
    expect((await call(t, 'GET', '/api/lab/settings', { token: customer.token })).status).toBe(403);
    expect((await call(t, 'GET', '/api/lab/settings', { token: staff.token })).status).toBe(403);
    const res = await call(t, 'GET', '/api/lab/settings', { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      labName: null,
      address: null,
      phone: null,
      email: null,
      website: null,
      certificationNumber: null,
      logo: null,
      prices: { expertValuation: 0, authenticityCheck: 0, conditionAssessment: 0, provenanceResearch: 0 },
      urgentSurchargePercent: 50,
      currency: 'EUR',
      require2faForStaff: false,
      requireReview: false,
      paymentInstructions: null,
      paymentLink: null,
      // The appraisal's texts and terms in force: the product's defaults until the lab sets its own.
      certificationTemplate: DEFAULT_CERTIFICATION,
      limitingConditionsTemplate: DEFAULT_LIMITING_CONDITIONS,
      revalueAfterMonths: 36,
      taxFilingWindowMonths: 22,

      flagHeldDaysAfterCompletion: 14,
    });
    for (const token of [undefined, customer.token, staff.token]) {
      const post = await call(t, 'POST', '/api/lab/settings', { token, form: settingsForm(valid) });
      expect(post.status).toBe(token ? 403 : 401);
    }
  });

  it('saves settings with empty fields as null and a logo stored under logo/, replacing the old one', async () => {
    const first = await call(t, 'POST', '/api/lab/settings', {
      token: admin.token,
      form: settingsForm(valid, { bytes: fixture('photo.png'), name: 'logo.png', type: 'image/png' }),
    });
    expect(first.status).toBe(200);
    const saved = first.body as LabSettings;
    expect(saved).toMatchObject({ ...valid, phone: null });
    expect(saved.logo).toMatch(/^\/Uploads\/logo\/[a-f0-9]{32}\.png$/);
    const firstKey = (saved.logo ?? '').replace('/Uploads/', '');
    expect(await t.storage.exists(firstKey)).toBe(true);

    const logoFile = await call(t, 'GET', saved.logo ?? '', { token: staff.token });
    expect(logoFile.status).toBe(200);

    const second = await call(t, 'POST', '/api/lab/settings', {
      token: admin.token,
      form: settingsForm(
        { ...valid, address: '  ' },
        { bytes: fixture('photo.jpg'), name: 'logo.jpg', type: 'image/jpeg' },
      ),
    });
    expect(second.status).toBe(200);
    const replaced = second.body as LabSettings;
    expect(replaced.address).toBeNull();
    expect(replaced.logo).toMatch(/^\/Uploads\/logo\/[a-f0-9]{32}\.jpg$/);
    expect(await t.storage.exists(firstKey)).toBe(false);
    expect(await t.storage.list('logo/')).toHaveLength(1);

    // Saving without a logo keeps the current one.
    const third = await call(t, 'POST', '/api/lab/settings', {
      token: admin.token,
      form: settingsForm(valid),
    });
    expect((third.body as LabSettings).logo).toBe(replaced.logo);
    const read = await call(t, 'GET', '/api/lab/settings', { token: admin.token });
    expect(read.body).toEqual(third.body);
  });

  it('refuses invalid settings with the documented messages and stores no logo', async () => {
    const before = await t.storage.list('logo/');
    const cases: [unknown, string][] = [
      [{ ...valid, labName: '' }, 'Lab name is required'],
      [{ ...valid, labName: undefined }, 'Lab name is required'],
      [{ ...valid, website: 'not a url' }, 'Invalid URL'],
      [{ ...valid, email: 'nope' }, 'Invalid email address'],
    ];
    for (const [settings, message] of cases) {
      const res = await call(t, 'POST', '/api/lab/settings', {
        token: admin.token,
        form: settingsForm(settings, { bytes: fixture('photo.png'), name: 'l.png', type: 'image/png' }),
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        message,
        errors: expect.arrayContaining([expect.objectContaining({ message })]),
      });
    }
    const notJson = await call(t, 'POST', '/api/lab/settings', {
      token: admin.token,
      form: settingsForm('{oops'),
    });
    expect(notJson.status).toBe(400);
    const noSettings = new FormData();
    noSettings.append('other', 'x');
    expect(
      (await call(t, 'POST', '/api/lab/settings', { token: admin.token, form: noSettings })).status,
    ).toBe(400);
    const json = await call(t, 'POST', '/api/lab/settings', { token: admin.token, json: valid });
    expect(json.status).toBe(400);
    expect(await t.storage.list('logo/')).toEqual(before);
  });

  it('refuses a logo that is not JPEG/PNG by content (415) or 2 MB and more (413)', async () => {
    const before = await t.storage.list('logo/');
    const fake = await call(t, 'POST', '/api/lab/settings', {
      token: admin.token,
      form: settingsForm(valid, { bytes: fixture('not-an-image.png'), name: 'logo.png', type: 'image/png' }),
    });
    expect(fake.status).toBe(415);
    expect(fake.body).toEqual({ message: 'Only JPEG or PNG files are allowed' });
    const pdf = await call(t, 'POST', '/api/lab/settings', {
      token: admin.token,
      form: settingsForm(valid, { bytes: fixture('document.pdf'), name: 'logo.jpg', type: 'image/jpeg' }),
    });
    expect(pdf.status).toBe(415);
    const png = fixture('photo.png');
    const big = Buffer.concat([png, Buffer.alloc(2 * 1024 * 1024 - png.length)]);
    const tooBig = await call(t, 'POST', '/api/lab/settings', {
      token: admin.token,
      form: settingsForm(valid, { bytes: big, name: 'big.png', type: 'image/png' }),
    });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toEqual({ message: 'File size must be less than 2MB' });
    expect(await t.storage.list('logo/')).toEqual(before);
  });

  it('stores the price list exactly in its currency and keeps it when a save leaves it out', async () => {
    const prices = {
      expertValuation: 0.1,
      authenticityCheck: '0.20',
      conditionAssessment: 1234.5,
      provenanceResearch: '99',
    };
    const saved = await call(t, 'POST', '/api/lab/settings', {
      token: admin.token,
      form: settingsForm({ ...valid, prices, urgentSurchargePercent: 25, currency: 'usd' }),
    });
    expect(saved.status).toBe(200);
    const expected = {
      prices: {
        expertValuation: 0.1,
        authenticityCheck: 0.2,
        conditionAssessment: 1234.5,
        provenanceResearch: 99,
      },
      urgentSurchargePercent: 25,
      currency: 'USD',
    };
    expect(saved.body).toMatchObject(expected);
    const [row] = await t.db.select().from(labSettings);
    expect(row?.pricesMinor).toEqual({
      expertValuation: 10,
      authenticityCheck: 20,
      conditionAssessment: 123450,
      provenanceResearch: 9900,
    });
    // A save without the price fields (an older form) changes none of them.
    const again = await call(t, 'POST', '/api/lab/settings', {
      token: admin.token,
      form: settingsForm(valid),
    });
    expect(again.body).toMatchObject(expected);
    expect((await call(t, 'GET', '/api/lab/settings', { token: admin.token })).body).toMatchObject(expected);
  });

  it('refuses a bad price list with 400 and changes nothing', async () => {
    const before = (await call(t, 'GET', '/api/lab/settings', { token: admin.token })).body;
    const base = {
      ...valid,
      prices: { expertValuation: 10, authenticityCheck: 10, conditionAssessment: 10, provenanceResearch: 10 },
      urgentSurchargePercent: 10,
      currency: 'EUR',
    };
    const cases: [unknown, string, string][] = [
      [
        { ...base, prices: { ...base.prices, expertValuation: -5 } },
        'prices.expertValuation',
        'The amount cannot be negative',
      ],
      [
        { ...base, prices: { ...base.prices, authenticityCheck: '1.005' } },
        'prices.authenticityCheck',
        'Use at most 2 decimals',
      ],
      [
        { ...base, prices: { ...base.prices, provenanceResearch: 'ten' } },
        'prices.provenanceResearch',
        'Enter an amount such as 120 or 120.50',
      ],
      [
        { ...base, currency: 'JPY', prices: { ...base.prices, conditionAssessment: 1.5 } },
        'prices.conditionAssessment',
        'This currency has no decimals',
      ],
      [
        { ...base, currency: 'EURO' },
        'currency',
        'Enter a three-letter currency code such as EUR, USD or GBP',
      ],
      [
        { ...base, currency: 'XYZ' },
        'currency',
        'Enter a three-letter currency code such as EUR, USD or GBP',
      ],
      [
        { ...base, currency: undefined },
        'currency',
        'Enter a three-letter currency code such as EUR, USD or GBP',
      ],
      [
        { ...base, urgentSurchargePercent: 12.5 },
        'urgentSurchargePercent',
        'The urgent surcharge must be a whole percent from 0 to 500',
      ],
      [
        { ...base, urgentSurchargePercent: 501 },
        'urgentSurchargePercent',
        'The urgent surcharge must be a whole percent from 0 to 500',
      ],
      [{ ...base, prices: { expertValuation: 10 } }, 'prices.authenticityCheck', 'Enter an amount'],
    ];
    for (const [settings, path, message] of cases) {
      const res = await call(t, 'POST', '/api/lab/settings', {
        token: admin.token,
        form: settingsForm(settings),
      });
      expect(res.status, path).toBe(400);
      const body = res.body as { message: string; errors: { path: string; message: string }[] };
      expect(body.errors, path).toContainEqual({ path, message });
    }
    expect((await call(t, 'GET', '/api/lab/settings', { token: admin.token })).body).toEqual(before);
  });
});

describe('/api/lab/settings website', () => {
  it('completes a website typed without https:// and still refuses what is not an address', async () => {
    const res = await call(t, 'POST', '/api/lab/settings', {
      token: admin.token,
      form: settingsForm({ ...valid, website: 'harbor.example.com/about' }),
    });
    expect(res.status).toBe(200);
    expect((res.body as LabSettings).website).toBe('https://harbor.example.com/about');
    const kept = await call(t, 'POST', '/api/lab/settings', {
      token: admin.token,
      form: settingsForm({ ...valid, website: 'http://old.example.com' }),
    });
    expect((kept.body as LabSettings).website).toBe('http://old.example.com');
    const bad = await call(t, 'POST', '/api/lab/settings', {
      token: admin.token,
      form: settingsForm({ ...valid, website: 'not a url' }),
    });
    expect(bad.status).toBe(400);
  });
});
