// The own list's answers, kept per signed-in user so that a dashboard loaded again answers without
// reading and presenting every row again (docs/decisions/0035-own-list-reuse.md).
//
// An answer is reused only while both things it was made from stand:
// - the owner's `samples_version` (users.samples_version), which triggers bump in the same transaction
//   as any change to one of their samples or its files (migration 0036), and which every signed-in
//   request already reads with its user; any instance behind the load balancer sees a change the
//   moment it is committed, so a client never reads an answer older than its own last write;
// - the UTC day: the only parts of a row that move without a write (overdue, an expired quote, a
//   re-valuation due) change with the day.
//
// Memory is bounded by the number of answers and their total size; the least recently used go first,
// and an answer nobody asked for in a while is dropped when next met.

export type OwnListAnswerLimits = {
  /** At most this many users' answers. */
  entries: number;
  /** At most this many characters of answers in all; a larger single answer is not kept. */
  chars: number;
  /** An answer unused for this long is not reused (and is dropped). */
  idleMs: number;
};

export const DEFAULT_OWN_LIST_ANSWER_LIMITS: OwnListAnswerLimits = {
  entries: 5_000,
  chars: 48 * 1024 * 1024,
  idleMs: 10 * 60_000,
};

type Entry = { version: string; day: string; body: string; usedAt: number };

export class OwnListAnswers {
  private readonly entries = new Map<number, Entry>();
  private chars = 0;

  constructor(
    private readonly limits: OwnListAnswerLimits = DEFAULT_OWN_LIST_ANSWER_LIMITS,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The kept answer of this user for this version and day, if there is one. */
  get(userId: number, version: string, day: string): string | undefined {
    const entry = this.entries.get(userId);
    if (!entry) return undefined;
    const now = this.clock();
    if (entry.version !== version || entry.day !== day || now - entry.usedAt > this.limits.idleMs) {
      this.drop(userId, entry);
      return undefined;
    }
    entry.usedAt = now;
    // Most recently used last: Map keeps insertion order, so the first key is the one to evict.
    this.entries.delete(userId);
    this.entries.set(userId, entry);
    return entry.body;
  }

  /** Keeps this answer (made from `version` on `day`) in place of the user's earlier one. */
  set(userId: number, version: string, day: string, body: string): void {
    const earlier = this.entries.get(userId);
    if (earlier) this.drop(userId, earlier);
    if (body.length > this.limits.chars / 4) return;
    this.entries.set(userId, { version, day, body, usedAt: this.clock() });
    this.chars += body.length;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= this.limits.entries && this.chars <= this.limits.chars) break;
      this.drop(oldest, entry);
    }
  }

  /** How many answers and characters are kept (for tests and the bench). */
  size(): { entries: number; chars: number } {
    return { entries: this.entries.size, chars: this.chars };
  }

  private drop(userId: number, entry: Entry) {
    this.entries.delete(userId);
    this.chars -= entry.body.length;
  }
}
