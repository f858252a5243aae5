// Ordering the report's chosen photos (docs/product/valuation-report.md, "The editor"): the pure
// part of the picker — where a move lands, which key moves where, what is announced.

/** `ids` with the item at `from` moved to `to` (clamped to the list). */
export function moveItem<T>(ids: readonly T[], from: number, to: number): T[] {
  const next = [...ids];
  const [item] = next.splice(from, 1);
  if (item === undefined) return next;
  next.splice(Math.max(0, Math.min(to, next.length)), 0, item);
  return next;
}

/** The keys a focused chosen photo answers to, as stated in the picker's help text. */
export const PHOTO_ORDER_KEYS =
  'Arrow Up and Arrow Down move it one place, Home and End to the first or last place';

/**
 * Where the chosen photo at `index` of `count` goes for a key press, or null when the key does not
 * move it (another key, a modifier held, or already at that end).
 */
export function keyedMove(
  key: { key: string; altKey?: boolean; ctrlKey?: boolean; metaKey?: boolean; shiftKey?: boolean },
  index: number,
  count: number,
): number | null {
  if (key.altKey || key.ctrlKey || key.metaKey || key.shiftKey) return null;
  const to =
    key.key === 'ArrowUp'
      ? index - 1
      : key.key === 'ArrowDown'
        ? index + 1
        : key.key === 'Home'
          ? 0
          : key.key === 'End'
            ? count - 1
            : null;
  if (to === null || to < 0 || to >= count || to === index) return null;
  return to;
}

/** What the live region says after a move. */
export const movedAnnouncement = (name: string, to: number, count: number) =>
  `${name} moved to position ${to + 1} of ${count}.`;
