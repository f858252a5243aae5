import { describe, expect, it } from 'vitest';
import { ELEMENTS_REQUIRED_MESSAGE, VALUATION_MESSAGES } from '../../../common/contracts/reports';
import type { SampleDetail } from '../../../common/contracts/samples';
import { checkDraft, draftFromSample, draftToBody, type ReportDraft, sameAsIssued } from './report-draft';

type Issued = Pick<SampleDetail, 'reportElements' | 'report' | 'files'>;

const photo = (id: number): SampleDetail['files'][number] => ({
  id,
  sampleId: 1,
  fileName: `p${id}.jpg`,
  originalName: `p${id}.jpg`,
  fileType: 'image/jpeg',
  fileSize: 100,
  fileCategory: 'photo',
  uploadDate: '2026-01-01T00:00:00.000Z',
  thumbnailUrl: null,
  displayUrl: null,
  processing: false,
});

const issued: Issued = {
  reportElements: [],
  files: [photo(11), photo(12)],
  report: {
    valuation: {
      low: 12000,
      high: 18000,
      currency: 'GBP',
      valueType: 'insurance-replacement',
      effectiveDate: '2026-03-14',
      basis: '<p>Comparable sales.</p>',
    },
    authenticity: { verdict: 'authentic', rationale: null },
    condition: { grade: 'very-good', notes: '<p>Fine.</p>' },
    identification: {
      maker: 'John Constable',
      period: null,
      origin: null,
      marks: null,
      dimensions: null,
      materials: null,
    },
    summary: null,
    photoIds: [12, 11, 99],
    assignment: null,
    comparables: [],
    revalueBy: null,
    taxAppraisal: null,
    certification: null,
  },
};

const empty = (): ReportDraft => draftFromSample({ reportElements: [], report: null, files: [] });

describe('the report draft', () => {
  it('is filled from the issued report (photos of the sample only, in order) and unchanged until edited', () => {
    const d = draftFromSample(issued);
    expect(d.valuation).toMatchObject({ low: '12000', high: '18000', currency: 'GBP' });
    expect(d.verdict).toBe('authentic');
    expect(d.grade).toBe('very-good');
    expect(d.identification.maker).toBe('John Constable');
    expect(d.photoIds).toEqual([12, 11]);
    expect(sameAsIssued(d, issued)).toBe(true);
    expect(sameAsIssued({ ...d, photoIds: [11, 12] }, issued)).toBe(false);
    expect(sameAsIssued({ ...d, grade: 'good' }, issued)).toBe(false);
    expect(sameAsIssued({ ...d, summary: '<p>New</p>' }, issued)).toBe(false);
  });

  it('leaves out untouched parts and sends a begun one, so the schema names what is missing', () => {
    expect(draftToBody(empty())).toMatchObject({ valuation: null, authenticity: null, condition: null });
    const begun = { ...empty(), rationale: '<p>Why</p>' };
    const checked = checkDraft(begun);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.errors['authenticity.verdict']).toBe(VALUATION_MESSAGES.verdict);
  });

  it('applies the server schema: elements, low above high, future date, currency decimals', () => {
    const none = checkDraft(empty());
    expect(none.ok ? null : none.errors.elements).toBe(ELEMENTS_REQUIRED_MESSAGE);
    // A verdict alone is enough without elements.
    expect(checkDraft({ ...empty(), grade: 'good' }).ok).toBe(true);
    const bad = checkDraft({
      ...empty(),
      valuation: {
        low: '500',
        high: '100.5',
        currency: 'JPY',
        valueType: 'fair-market',
        effectiveDate: '2999-01-01',
        basis: '',
      },
    });
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.errors['valuation.high']).toBe('This currency has no decimals');
      expect(bad.errors['valuation.effectiveDate']).toBe(VALUATION_MESSAGES.futureDate);
    }
    const range = checkDraft({
      ...empty(),
      valuation: {
        low: '500',
        high: '100',
        currency: 'GBP',
        valueType: 'fair-market',
        effectiveDate: '2026-01-02',
        basis: '',
      },
    });
    expect(range.ok ? null : range.errors['valuation.low']).toBe(VALUATION_MESSAGES.lowAboveHigh);
    const seven = checkDraft({ ...empty(), grade: 'good', photoIds: [1, 2, 3, 4, 5, 6, 7] });
    expect(seven.ok ? null : seven.errors.photoIds).toBe(VALUATION_MESSAGES.tooManyPhotos);
    const blank = checkDraft({ ...empty(), valuation: { ...empty().valuation, currency: '', high: '1' } });
    expect(blank.ok ? null : blank.errors['valuation.currency']).toMatch(/currency code/);
  });
});

describe('a first report starts from what is known', () => {
  const submitted = {
    reportElements: [],
    files: [photo(11)],
    report: null,
    dimensions: ' 41 × 33 cm ',
    materials: 'Oil on canvas',
    estimatedAge: 'c. 1820',
  };

  it("fills identification from the client's submission and the currency from the lab's settings", () => {
    const d = draftFromSample(submitted, { limitingConditionsTemplate: '', currency: 'USD' });
    expect(d.identification).toMatchObject({
      dimensions: '41 × 33 cm',
      materials: 'Oil on canvas',
      period: 'c. 1820',
      maker: '',
    });
    expect(d.valuation.currency).toBe('USD');
  });

  it("keeps an issued report's own identification and currency, not the submission's", () => {
    const d = draftFromSample(
      { ...issued, dimensions: '1 m', materials: 'Tin', estimatedAge: 'old' },
      {
        limitingConditionsTemplate: '',
        currency: 'USD',
      },
    );
    expect(d.identification.maker).toBe('John Constable');
    expect(d.identification.materials).not.toBe('Tin');
    expect(d.valuation.currency).toBe('GBP');
  });
});
