import { describe, expect, it } from 'vitest';
import { returnPathFrom, safeReturnPath } from './return-to';

describe('the page to return to after signing in', () => {
  it('accepts paths of this site', () => {
    expect(safeReturnPath('/sample/5')).toBe('/sample/5');
    expect(safeReturnPath('/admin?tab=staff#x')).toBe('/admin?tab=staff#x');
    expect(returnPathFrom({ state: { from: '/dashboard' } })).toBe('/dashboard');
  });
  it('refuses other sites, tricks and the sign-in pages themselves', () => {
    for (const bad of [
      'https://evil.test/',
      '//evil.test',
      '/\\evil.test',
      'sample/5',
      '/login',
      '/register',
      '/x\ny',
      5,
      null,
    ])
      expect(safeReturnPath(bad)).toBeNull();
    expect(returnPathFrom({ state: null })).toBeNull();
  });
});
