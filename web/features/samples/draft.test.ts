import { beforeEach, describe, expect, it } from 'vitest';
import { discardDraft, draftKey, EMPTY_SAMPLE_FORM, loadDraft, saveDraft } from './draft';

const store = new Map<string, string>();
beforeEach(() => {
  store.clear();
  globalThis.localStorage = {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
    removeItem: (k: string) => void store.delete(k),
  } as Storage;
});

describe('submission draft (browser only)', () => {
  it('saves values, file names and savedAt, per account, and discards', () => {
    const key = draftKey(7);
    const saved = saveDraft(key, {
      values: { ...EMPTY_SAMPLE_FORM, itemName: 'Vase', expertValuation: true },
      photoNames: ['a.jpg'],
      documentNames: ['b.pdf'],
    });
    expect(saved.savedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(loadDraft(key)).toEqual(saved);
    expect(loadDraft(draftKey(8))).toBeNull();
    discardDraft(key);
    expect(loadDraft(key)).toBeNull();
  });

  it('ignores a corrupt or foreign-shaped draft', () => {
    store.set(draftKey(1), '{not json');
    expect(loadDraft(draftKey(1))).toBeNull();
    store.set(draftKey(2), JSON.stringify({ values: { itemName: 5, description: 'ok', extra: 'x' } }));
    const d = loadDraft(draftKey(2));
    expect(d?.values.itemName).toBe('');
    expect(d?.values.description).toBe('ok');
    expect(d?.values).not.toHaveProperty('extra');
  });
});
