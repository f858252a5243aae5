import { describe, expect, it } from 'vitest';
import { OwnListAnswers } from './own-list-answers';

const limits = { entries: 3, chars: 100, idleMs: 1_000 };

function answers() {
  let now = 0;
  const kept = new OwnListAnswers(limits, () => now);
  return { kept, advance: (ms: number) => (now += ms) };
}

describe('OwnListAnswers', () => {
  it('gives back an answer only for the version and day it was made from', () => {
    const { kept } = answers();
    kept.set(1, '7', '2026-11-27', '[1]');
    expect(kept.get(1, '7', '2026-11-27')).toBe('[1]');
    expect(kept.get(2, '7', '2026-11-27')).toBeUndefined();
    expect(kept.get(1, '7', '2026-11-28')).toBeUndefined();
    // A mismatch drops it: even the old key no longer finds it.
    expect(kept.get(1, '7', '2026-11-27')).toBeUndefined();
    kept.set(1, '8', '2026-11-27', '[2]');
    expect(kept.get(1, '9', '2026-11-27')).toBeUndefined();
    expect(kept.size()).toEqual({ entries: 0, chars: 0 });
  });

  it('keeps one answer per user, the latest', () => {
    const { kept } = answers();
    kept.set(1, '1', 'd', 'aaaa');
    kept.set(1, '2', 'd', 'bb');
    expect(kept.get(1, '1', 'd')).toBeUndefined();
    kept.set(1, '2', 'd', 'bb');
    expect(kept.get(1, '2', 'd')).toBe('bb');
    expect(kept.size()).toEqual({ entries: 1, chars: 2 });
  });

  it('evicts the least recently used past the number of answers', () => {
    const { kept } = answers();
    kept.set(1, '1', 'd', 'a');
    kept.set(2, '1', 'd', 'b');
    kept.set(3, '1', 'd', 'c');
    expect(kept.get(1, '1', 'd')).toBe('a'); // 2 is now the least recently used
    kept.set(4, '1', 'd', 'd');
    expect(kept.get(2, '1', 'd')).toBeUndefined();
    expect([kept.get(1, '1', 'd'), kept.get(3, '1', 'd'), kept.get(4, '1', 'd')]).toEqual(['a', 'c', 'd']);
    expect(kept.size()).toEqual({ entries: 3, chars: 3 });
  });

  it('evicts past the size budget and never keeps an answer over a quarter of it', () => {
    const { kept } = answers();
    kept.set(1, '1', 'd', 'x'.repeat(25));
    expect(kept.size().entries).toBe(1);
    kept.set(2, '1', 'd', 'x'.repeat(26)); // over a quarter of 100: not kept
    expect(kept.get(2, '1', 'd')).toBeUndefined();
    kept.set(3, '1', 'd', 'y'.repeat(25));
    kept.set(4, '1', 'd', 'z'.repeat(25));
    expect(kept.size()).toEqual({ entries: 3, chars: 75 });
    kept.set(5, '1', 'd', 'w'.repeat(25)); // entries over 3: the oldest (1) goes
    expect(kept.get(1, '1', 'd')).toBeUndefined();
    expect(kept.size()).toEqual({ entries: 3, chars: 75 });
    // The size alone: room for many answers, but not for their characters.
    const roomy = new OwnListAnswers({ ...limits, entries: 10 });
    for (let u = 1; u <= 4; u++) roomy.set(u, '1', 'd', String(u).repeat(25));
    expect(roomy.size()).toEqual({ entries: 4, chars: 100 });
    roomy.set(5, '1', 'd', '5');
    expect(roomy.get(1, '1', 'd')).toBeUndefined();
    expect(roomy.size()).toEqual({ entries: 4, chars: 76 });
  });

  it('does not reuse an answer left unused for longer than the idle time', () => {
    const { kept, advance } = answers();
    kept.set(1, '1', 'd', 'a');
    advance(900);
    expect(kept.get(1, '1', 'd')).toBe('a'); // used: its idle time starts again
    advance(900);
    expect(kept.get(1, '1', 'd')).toBe('a');
    advance(1_001);
    expect(kept.get(1, '1', 'd')).toBeUndefined();
    expect(kept.size()).toEqual({ entries: 0, chars: 0 });
  });
});
