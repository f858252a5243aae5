import { describe, expect, it } from 'vitest';
import { clientLabel, displaySampleId, normalizeStatus, servicesText } from './samples';
import { homePathForRole, isLabRole } from './roles';
import { normalizeReportCode } from './reports';

describe('sample vocabulary', () => {
  it('pads display IDs to four digits', () => {
    expect(displaySampleId(1)).toBe('VAL-0001');
    expect(displaySampleId(123)).toBe('VAL-0123');
    expect(displaySampleId(12345)).toBe('VAL-12345');
  });

  it('shows unknown statuses as submitted', () => {
    expect(normalizeStatus('analysis')).toBe('analysis');
    expect(normalizeStatus('bogus')).toBe('submitted');
    expect(normalizeStatus(null)).toBe('submitted');
  });

  it('names services or falls back to Basic Assessment', () => {
    expect(servicesText({ expertValuation: true, provenanceResearch: true })).toBe('Valuation, Provenance');
    expect(servicesText({})).toBe('Basic Assessment');
  });
});

describe('roles and codes', () => {
  it('routes each role home', () => {
    expect(homePathForRole('admin')).toBe('/admin');
    expect(homePathForRole('staff')).toBe('/staff');
    expect(homePathForRole('user')).toBe('/');
    expect(homePathForRole('collector')).toBe('/');
    expect(isLabRole('staff')).toBe(true);
    expect(isLabRole('user')).toBe(false);
  });

  it('trims and upper-cases verification codes', () => {
    expect(normalizeReportCode('  ab3k9xyz ')).toBe('AB3K9XYZ');
  });
});

describe('clientLabel (the Client column, docs/product/screens.md)', () => {
  const base = { representativeName: null, clientName: null, submitterName: 'Sub Mitter', user: null };
  it('names the representative and the client they act for', () => {
    expect(clientLabel({ ...base, representativeName: 'Rita Rep', clientName: 'Carl Client' })).toBe(
      'Rita Rep (for Carl Client)',
    );
    expect(clientLabel({ ...base, representativeName: 'Rita Rep' })).toBe('Rita Rep (for Sub Mitter)');
  });
  it("falls back to the owner's first and last name, then to the submitter's name", () => {
    expect(clientLabel({ ...base, user: { firstName: 'Olivia', lastName: 'Bennett' } })).toBe(
      'Olivia Bennett',
    );
    expect(clientLabel({ ...base, user: { firstName: 'Olivia', lastName: null } })).toBe('Olivia');
    expect(clientLabel({ ...base, user: { firstName: null, lastName: null } })).toBe('Sub Mitter');
    expect(clientLabel(base)).toBe('Sub Mitter');
  });
});
