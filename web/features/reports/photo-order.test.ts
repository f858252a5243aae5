import { describe, expect, it } from 'vitest';
import { keyedMove, movedAnnouncement, moveItem } from './photo-order';

describe('moveItem', () => {
  it('moves an item forward and back', () => {
    expect(moveItem([1, 2, 3, 4], 0, 2)).toEqual([2, 3, 1, 4]);
    expect(moveItem([1, 2, 3, 4], 3, 0)).toEqual([4, 1, 2, 3]);
  });
  it('clamps the target and ignores a missing source', () => {
    expect(moveItem([1, 2, 3], 0, 9)).toEqual([2, 3, 1]);
    expect(moveItem([1, 2, 3], 2, -4)).toEqual([3, 1, 2]);
    expect(moveItem([1, 2, 3], 7, 0)).toEqual([1, 2, 3]);
  });
});

describe('keyedMove', () => {
  it('Arrow Up and Arrow Down move one place', () => {
    expect(keyedMove({ key: 'ArrowUp' }, 2, 6)).toBe(1);
    expect(keyedMove({ key: 'ArrowDown' }, 2, 6)).toBe(3);
  });
  it('Home and End move to the ends', () => {
    expect(keyedMove({ key: 'Home' }, 4, 6)).toBe(0);
    expect(keyedMove({ key: 'End' }, 1, 6)).toBe(5);
  });
  it('does nothing at the ends', () => {
    expect(keyedMove({ key: 'ArrowUp' }, 0, 6)).toBeNull();
    expect(keyedMove({ key: 'ArrowDown' }, 5, 6)).toBeNull();
    expect(keyedMove({ key: 'Home' }, 0, 6)).toBeNull();
    expect(keyedMove({ key: 'End' }, 5, 6)).toBeNull();
    expect(keyedMove({ key: 'ArrowDown' }, 0, 1)).toBeNull();
  });
  it('ignores other keys and keys with a modifier (browser and screen reader shortcuts)', () => {
    expect(keyedMove({ key: 'ArrowLeft' }, 2, 6)).toBeNull();
    expect(keyedMove({ key: 'Enter' }, 2, 6)).toBeNull();
    for (const mod of ['altKey', 'ctrlKey', 'metaKey', 'shiftKey'] as const)
      expect(keyedMove({ key: 'ArrowUp', [mod]: true }, 2, 6)).toBeNull();
  });
});

it('announces the new position, counted from one', () => {
  expect(movedAnnouncement('p1.jpg', 2, 6)).toBe('p1.jpg moved to position 3 of 6.');
});
