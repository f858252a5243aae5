// Custody: where the physical item is, apart from the workflow status (docs/product/custody.md).

export const CUSTODY_STATES = [
  'awaiting-arrival',
  'received',
  'in-storage',
  'with-expert',
  'returned',
  'collected',
] as const;
export type CustodyState = (typeof CUSTODY_STATES)[number];

export const CUSTODY_STATE_LABELS: Record<CustodyState, string> = {
  'awaiting-arrival': 'Awaiting arrival',
  received: 'Received',
  'in-storage': 'In storage',
  'with-expert': 'With an expert',
  returned: 'Returned',
  collected: 'Collected',
};

/** Unknown values read as awaiting arrival (an item nobody has checked in). */
export function normalizeCustodyState(value: string | null | undefined): CustodyState {
  return (CUSTODY_STATES as readonly string[]).includes(value ?? '')
    ? (value as CustodyState)
    : 'awaiting-arrival';
}

/** The item is in the lab's hands: it can be moved, handed over, labelled and returned. */
export const IN_LAB_STATES: readonly CustodyState[] = ['received', 'in-storage', 'with-expert'];
export const isInLab = (state: string) => (IN_LAB_STATES as readonly string[]).includes(state);

/** What a custody event records (one row each in the item's custody history). */
export const CUSTODY_EVENTS = [
  'received',
  'moved',
  'to-expert',
  'to-storage',
  'returned',
  'collected',
] as const;
export type CustodyEvent = (typeof CUSTODY_EVENTS)[number];

/** The events the owner sees in their history: the item arrived, went back, was collected. */
export const OWNER_VISIBLE_EVENTS: readonly CustodyEvent[] = ['received', 'returned', 'collected'];

export const CUSTODY_EVENT_LABELS: Record<CustodyEvent, string> = {
  received: 'Received at the intake desk',
  moved: 'Moved',
  'to-expert': 'Handed to an expert',
  'to-storage': 'Put in storage',
  returned: 'Returned by courier',
  collected: 'Collected in person',
};

/** The moves staff make from the sample page or the scan result. */
export const CUSTODY_MOVES = ['moved', 'to-expert', 'to-storage'] as const;
export type CustodyMove = (typeof CUSTODY_MOVES)[number];

export const RETURN_METHODS = ['courier', 'collected'] as const;
export type ReturnMethod = (typeof RETURN_METHODS)[number];

/** Default of the lab setting: items still held this many days after completion are flagged. */
export const DEFAULT_FLAG_HELD_DAYS = 14;
export const MAX_FLAG_HELD_DAYS = 365;

/**
 * A VAL id as typed or scanned ("VAL-0042", "val-42", "42", " VAL0042 ") → 42; null when it is
 * not one. A handheld scanner types the label's barcode text and presses Enter.
 */
export function parseSampleIdInput(input: string): number | null {
  const m = /^\s*(?:val\s*-?\s*)?0*(\d{1,10})\s*$/i.exec(input);
  if (!m) return null;
  const id = Number(m[1]);
  return Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647 ? id : null;
}

/** The condition words as the client reads them after "Received on 3 March, …": first letter lower-cased. */
export function conditionPhrase(condition: string): string {
  const c = condition.trim();
  if (!c) return c;
  // Keep acronyms and names ("UV light …"): lower-case only a capital followed by a lower-case letter.
  return /^[A-Z][a-z]/.test(c) ? c[0]!.toLowerCase() + c.slice(1) : c;
}
