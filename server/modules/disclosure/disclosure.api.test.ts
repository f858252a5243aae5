import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShareLink, VerificationLogEntry } from '../../../common/contracts/share-links';
import type { VerificationResponse } from '../../../common/contracts/verification';
import { reportShareLinks, samples } from '../../db/schema';
import { photoFile, submissionFields, submitSample, valuationReport } from '../../../tests/support/factories';
import { call, createUser, startTestApp, type TestApp, type TestUser } from '../../../tests/support/test-app';

// Owner-controlled disclosure (docs/product/valuation-report.md): public verification shows the
// verdicts and photos but never the value; the owner's share links add the value until revoked or
// expired; the owner sees every lookup of their report.

let t: TestApp;
let staff: TestUser;
let owner: TestUser;
let stranger: TestUser;
let admin: TestUser;
let sampleId: number;
let code: string;
let photoIds: number[];

beforeAll(async () => {
  t = await startTestApp();
  [staff, owner, stranger, admin] = await Promise.all([
    createUser(t, { role: 'staff' }),
    createUser(t, { role: 'user' }),
    createUser(t, { role: 'user' }),
    createUser(t, { role: 'admin' }),
  ]);
  sampleId = await submitSample(t, owner.token, submissionFields({ category: 'artwork-paintings' }), [
    photoFile('front.jpg'),
    photoFile('back.jpg'),
    photoFile('detail.jpg'),
  ]);
  await t.db.update(samples).set({ assignedStaffId: staff.id }).where(eq(samples.id, sampleId));
  const detail = (await call(t, 'GET', `/api/samples/${sampleId}`, { token: owner.token })).body as {
    files: { id: number }[];
  };
  photoIds = [detail.files[2]?.id, detail.files[0]?.id] as number[];
  const issued = await call(t, 'POST', `/api/staff/samples/${sampleId}/report`, {
    token: staff.token,
    json: valuationReport(photoIds),
  });
  expect(issued.status).toBe(200);
  code = (issued.body as { reportCode: string }).reportCode;
});
afterAll(async () => {
  await t?.close();
});

const verify = (share?: string | null) =>
  call(
    t,
    'GET',
    `/api/reports/verify/${code}${share === undefined ? '' : `?share=${encodeURIComponent(share ?? '')}`}`,
  );
const createLink = (token: string, json: unknown = { expiresInDays: 30, label: 'Insurer' }, id = sampleId) =>
  call(t, 'POST', `/api/samples/${id}/share-links`, { token, json });
/** The value block as the owner entered it, in major units. */
const VALUE = {
  low: 12_000,
  high: 18_000,
  currency: 'GBP',
  valueType: 'insurance-replacement',
  effectiveDate: '2026-03-14',
};

describe('public verification of a valuation report', () => {
  it('shows identification, verdicts and the chosen photos, never the value', async () => {
    const res = await verify();
    expect(res.status).toBe(200);
    const body = res.body as VerificationResponse;
    expect(body.authenticity).toEqual({ verdict: 'authentic' });
    expect(body.condition).toEqual({ grade: 'very-good' });
    expect(body.identification).toMatchObject({
      maker: 'John Constable (attributed)',
      materials: 'Oil on canvas',
    });
    expect(body.valuation).toBeNull();
    expect(res.text).not.toMatch(/18000|12000|insurance-replacement|Comparable sales/);
    // Only the report's photos, in its order, at links that work without a token.
    expect(body.photos).toHaveLength(2);
    for (const [i, photo] of body.photos.entries()) {
      expect(photo.url).toBe(`/api/public/reports/${code}/photos/${photoIds[i]}`);
      let image = await call(t, 'GET', photo.url);
      for (let n = 0; n < 100 && image.status === 404; n++) {
        await new Promise((r) => setTimeout(r, 100));
        image = await call(t, 'GET', photo.url);
      }
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toContain('image/jpeg');
    }
  });

  it('puts the verdict and grade, never the value, in the credential', async () => {
    const res = await call(t, 'GET', `/api/reports/verify/${code}/credential`);
    expect(res.status).toBe(200);
    const claims = decodeJwt(res.text) as { credentialSubject: Record<string, unknown> };
    expect(claims.credentialSubject).toMatchObject({ authenticity: 'authentic', condition: 'very-good' });
    expect(res.text.length).toBeGreaterThan(0);
    expect(JSON.stringify(claims)).not.toMatch(/18000|GBP/);
  });
});

describe('share links', () => {
  it('lets the owner create one that shows the value, until it is revoked', async () => {
    const res = await createLink(owner.token);
    expect(res.status).toBe(201);
    const link = res.body as ShareLink;
    expect(link).toMatchObject({ label: 'Insurer', active: true, revokedAt: null });
    expect(link.url).toBe(`http://lab.test/verify-report?code=${code}&share=${link.token}`);
    expect(Date.parse(link.expiresAt) - Date.now()).toBeGreaterThan(29.9 * 86_400_000);

    expect((await verify(link.token)).body).toMatchObject({
      valuation: VALUE,
      authenticity: { verdict: 'authentic' },
    });
    expect(((await verify('not-a-real-token')).body as VerificationResponse).valuation).toBeNull();

    // The token is shown once: the list gives its last characters, and the database only its hash.
    const listed = await call(t, 'GET', `/api/samples/${sampleId}/share-links`, { token: owner.token });
    expect((listed.body as ShareLink[]).find((l) => l.id === link.id)).toEqual({
      ...link,
      token: null,
      url: null,
      hint: link.token?.slice(-4),
    });
    expect(listed.text).not.toContain(link.token);
    const stored = await t.db.select().from(reportShareLinks).where(eq(reportShareLinks.id, link.id));
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(link.token);
    expect(stored[0]?.tokenHash).toBe(
      createHash('sha256')
        .update(link.token ?? '')
        .digest('hex'),
    );

    const revoked = await call(t, 'DELETE', `/api/samples/${sampleId}/share-links/${link.id}`, {
      token: owner.token,
    });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: link.id, active: false });
    expect(((await verify(link.token)).body as VerificationResponse).valuation).toBeNull();
  });

  it('stops showing the value once the link has expired', async () => {
    const link = (await createLink(owner.token, { expiresInDays: 1 })).body as ShareLink;
    expect(((await verify(link.token)).body as VerificationResponse).valuation).toEqual(VALUE);
    await t.db
      .update(reportShareLinks)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(reportShareLinks.id, link.id));
    expect(((await verify(link.token)).body as VerificationResponse).valuation).toBeNull();
  });

  it("does not show one report's value through another report's link", async () => {
    const other = await submitSample(t, owner.token, submissionFields(), [photoFile()]);
    await t.db.update(samples).set({ assignedStaffId: staff.id }).where(eq(samples.id, other));
    await call(t, 'POST', `/api/staff/samples/${other}/report`, {
      token: staff.token,
      json: valuationReport(),
    });
    const foreign = (await createLink(owner.token, { expiresInDays: 5 }, other)).body as ShareLink;
    expect(((await verify(foreign.token)).body as VerificationResponse).valuation).toBeNull();
  });

  it('is for the owner and admins only; expiry 1–365 days; needs an issued report', async () => {
    expect((await createLink(stranger.token)).status).toBe(404);
    expect((await createLink(staff.token)).status).toBe(403);
    expect((await createLink(admin.token)).status).toBe(201);
    for (const expiresInDays of [0, 366, 1.5, '7']) {
      const res = await createLink(owner.token, { expiresInDays });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message: 'Choose an expiry between 1 and 365 days' });
    }
    const unissued = await submitSample(t, owner.token);
    expect((await createLink(owner.token, { expiresInDays: 3 }, unissued)).body).toMatchObject({
      message: 'This sample has no issued report to share yet',
    });
    expect(
      (await call(t, 'GET', `/api/samples/${sampleId}/share-links`, { token: stranger.token })).status,
    ).toBe(404);
    expect(
      (await call(t, 'DELETE', `/api/samples/${sampleId}/share-links/1`, { token: staff.token })).status,
    ).toBe(403);
    expect(
      (await call(t, 'DELETE', `/api/samples/${sampleId}/share-links/999999`, { token: owner.token })).status,
    ).toBe(404);
  });
});

describe("the owner's verification log", () => {
  it('lists lookups newest first, says which came through a share link, and pages', async () => {
    const link = (await createLink(owner.token, { expiresInDays: 2, label: 'Auction house' }))
      .body as ShareLink;
    const before = Date.now();
    await verify();
    await verify(link.token);
    const after = Date.now();
    let entries: VerificationLogEntry[] = [];
    let total = 0;
    for (let i = 0; i < 50; i++) {
      const res = await call(t, 'GET', `/api/samples/${sampleId}/verifications?pageSize=100`, {
        token: owner.token,
      });
      expect(res.status).toBe(200);
      entries = res.body as VerificationLogEntry[];
      total = Number(res.headers.get('x-total-count'));
      // Entries are written in batches: wait until the last lookup is in and the page and count agree.
      if (entries[0]?.shareLinkId === link.id && entries.length === total) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(entries[0]).toMatchObject({
      result: 'authentic',
      shareLinkId: link.id,
      shareLinkLabel: 'Auction house',
    });
    expect(entries[0]?.network).toMatch(/^127\.0\.0\.0\/24$/);
    // The time of the lookup itself, to the millisecond (not the time its batch was written).
    const at = Date.parse(String(entries[0]?.at));
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(after);
    expect(entries[1]).toMatchObject({ result: 'authentic', shareLinkId: null });
    expect(total).toBe(entries.length);
    const ids = entries.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));

    const page2 = await call(t, 'GET', `/api/samples/${sampleId}/verifications?page=2&pageSize=1`, {
      token: owner.token,
    });
    expect(page2.body).toEqual([entries[1]]);
    expect(page2.headers.get('x-total-count')).toBe(String(total));
    expect(
      (await call(t, 'GET', `/api/samples/${sampleId}/verifications`, { token: stranger.token })).status,
    ).toBe(404);
    expect(
      (await call(t, 'GET', `/api/samples/${sampleId}/verifications`, { token: staff.token })).status,
    ).toBe(403);
    expect(
      (await call(t, 'GET', `/api/samples/${sampleId}/verifications`, { token: admin.token })).status,
    ).toBe(200);
  });
});
