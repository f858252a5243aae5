import { describe, expect, it } from 'vitest';
import { conditionPhrase, normalizeCustodyState, parseSampleIdInput } from './custody';

describe('parseSampleIdInput', () => {
  it('reads a VAL id typed or scanned, with or without its prefix', () => {
    expect(parseSampleIdInput('VAL-0042')).toBe(42);
    expect(parseSampleIdInput('val-42')).toBe(42);
    expect(parseSampleIdInput(' VAL0042 ')).toBe(42);
    expect(parseSampleIdInput('42')).toBe(42);
    expect(parseSampleIdInput('VAL-12345')).toBe(12345);
  });
  it('refuses what is not one', () => {
    for (const bad of ['', 'VAL-', 'abc', 'VAL-0', '0', '-3', '4.2', 'VAL-99999999999', 'X-0042'])
      expect(parseSampleIdInput(bad)).toBeNull();
  });
});

describe('conditionPhrase', () => {
  it('lower-cases a sentence start but keeps acronyms', () => {
    expect(conditionPhrase('In good order')).toBe('in good order');
    expect(conditionPhrase('UV marks on base')).toBe('UV marks on base');
    expect(conditionPhrase('  chipped rim ')).toBe('chipped rim');
  });
});

describe('normalizeCustodyState', () => {
  it('reads unknown values as awaiting arrival', () => {
    expect(normalizeCustodyState('in-storage')).toBe('in-storage');
    expect(normalizeCustodyState('lost')).toBe('awaiting-arrival');
    expect(normalizeCustodyState(null)).toBe('awaiting-arrival');
  });
});
