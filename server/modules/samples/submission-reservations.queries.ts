import { and, eq, lte, type Placeholder, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { sampleFiles, samples, submissionReservations, users } from '../../db/schema';

// The per-customer limits held under parallel requests (docs/product/security.md): a submission
// first reserves one of the customer's submissions per hour and the bytes its upload may store,
// under a lock on the customer's row, and only then reads the upload.

/** How long a reservation counts when its request never ended it (the process died mid-upload). */
export const RESERVATION_TTL_MS = 30 * 60_000;

export type Reservation = { id: number; bytes: number };
export type ReservationOutcome =
  { ok: true; reservation: Reservation; limitBytes: number } | { ok: false; reason: 'hourly' | 'storage' };

/**
 * Reserves a submission for `userId`: refused when the samples of the last hour plus the
 * submissions in progress reach `perHour`, or when the stored bytes plus those reserved reach
 * `limitBytes`. Reserves `wantBytes`, or what is left of the allowance when that is less.
 */
export async function reserveSubmission(
  db: Db,
  userId: number,
  limits: { perHour: number; limitBytes: number; wantBytes: number },
): Promise<ReservationOutcome> {
  return db.transaction(async (tx) => {
    // Parallel submissions of one customer take turns here; the reads below see each other's
    // reservations because each statement after the lock reads what was committed before it.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    await tx
      .delete(submissionReservations)
      .where(
        and(eq(submissionReservations.userId, userId), lte(submissionReservations.expiresAt, sql`now()`)),
      );
    const [usage] = await tx
      .select({
        recent: sql<number>`(select count(*) from ${samples} s
          where s.user_id = ${userId} and s.submission_date > now() - interval '1 hour')::int
          + (select count(*) from ${submissionReservations} r where r.user_id = ${userId})::int`,
        bytes: sql<string>`(select coalesce(sum(f.file_size), 0) from ${sampleFiles} f
          join ${samples} s on s.id = f.sample_id
          where s.user_id = ${userId} and f.custody_event_id is null)::bigint
          + (select coalesce(sum(r.bytes), 0) from ${submissionReservations} r where r.user_id = ${userId})::bigint`,
      })
      .from(sql`(select 1) as one`);
    const recent = Number(usage?.recent ?? 0);
    const bytes = Number(usage?.bytes ?? 0);
    if (recent >= limits.perHour) return { ok: false, reason: 'hourly' } as const;
    if (bytes >= limits.limitBytes) return { ok: false, reason: 'storage' } as const;
    const reserved = Math.min(limits.wantBytes, limits.limitBytes - bytes);
    const [row] = await tx
      .insert(submissionReservations)
      .values({ userId, bytes: reserved, expiresAt: new Date(Date.now() + RESERVATION_TTL_MS) })
      .returning({ id: submissionReservations.id, bytes: submissionReservations.bytes });
    if (!row) throw new Error('reservation not stored');
    return { ok: true, reservation: row, limitBytes: limits.limitBytes } as const;
  });
}

/** Gives a reservation back (the upload failed or was refused). */
export async function releaseReservation(db: DbOrTx, id: number): Promise<void> {
  await db.delete(submissionReservations).where(eq(submissionReservations.id, id));
}

/** The SQL that ends a reservation inside the statement that stores its sample. */
export const endReservationCte = (id: number | Placeholder) =>
  sql`r as (delete from ${submissionReservations} where id = ${id})`;
