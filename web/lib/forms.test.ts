import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { lazyContract } from './forms';

const schema = z.object({ email: z.string().trim().email('Invalid email address') });

describe('lazyContract', () => {
  it('waits for the schema the first time, then checks at once with its messages', async () => {
    let loads = 0;
    const contract = lazyContract(async () => {
      loads += 1;
      return schema;
    });
    const first = contract.validate({ email: 'nope' });
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toEqual({ email: 'Invalid email address' });
    expect(contract.validate({ email: 'nope' })).toEqual({ email: 'Invalid email address' });
    expect(contract.validate({ email: 'a@b.co' })).toEqual({});
    expect(await contract.parse({ email: ' a@b.co ' })).toEqual({ email: 'a@b.co' });
    expect(loads).toBe(1);
  });

  it('preload starts the import once, so the first blur need not wait', async () => {
    let loads = 0;
    const contract = lazyContract(async () => {
      loads += 1;
      return schema;
    });
    contract.preload();
    contract.preload();
    await Promise.resolve();
    await Promise.resolve();
    expect(loads).toBe(1);
    expect(contract.validate({ email: '' })).toEqual({ email: 'Invalid email address' });
  });

  it('sends the form unchecked when the schema cannot be loaded, and tries again next time', async () => {
    let fail = true;
    const contract = lazyContract(async () => {
      if (fail) throw new Error('offline');
      return schema;
    });
    expect(await contract.validate({ email: 'nope' })).toEqual({});
    fail = false;
    expect(await contract.validate({ email: 'nope' })).toEqual({ email: 'Invalid email address' });
  });
});
