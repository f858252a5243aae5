import { describe, expect, it } from 'vitest';
import { concurrencyLimit, hashPassword, QueueFullError, verifyPassword } from './passwords';

describe('concurrencyLimit', () => {
  it('never runs more than the limit at once and runs everything in arrival order', async () => {
    const run = concurrencyLimit(2);
    let active = 0;
    let peak = 0;
    const started: number[] = [];
    const task = (i: number) => async () => {
      started.push(i);
      active++;
      peak = Math.max(peak, active);
      await new Promise((r) => setTimeout(r, 5));
      active--;
      return i;
    };
    const results = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => run(task(i))));
    expect(results).toEqual([0, 1, 2, 3, 4, 5]);
    expect(peak).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('refuses with a 503 + Retry-After error once its queue is full, and accepts again when it drains', async () => {
    const run = concurrencyLimit(1, () => 2);
    let release = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const slow = () => run(() => gate);
    const accepted = [slow(), slow(), slow()];
    const refused = slow();
    await expect(refused).rejects.toBeInstanceOf(QueueFullError);
    await expect(refused).rejects.toMatchObject({ statusCode: 503, headers: { 'retry-after': '2' } });
    release();
    await Promise.all(accepted);
    expect(await run(async () => 'after')).toBe('after');
  });

  it('frees its slot when a task fails', async () => {
    const run = concurrencyLimit(1);
    await expect(run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await run(async () => 'next')).toBe('next');
  });
});

describe('passwords', () => {
  it('verifies the right password only, and a malformed hash is a failure, not an error', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(stored, 'correct horse battery')).toBe(true);
    expect(await verifyPassword(stored, 'wrong')).toBe(false);
    expect(await verifyPassword('not-a-hash', 'x')).toBe(false);
  });
});
