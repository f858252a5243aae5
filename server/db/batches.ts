/**
 * A table read in batches by keyset, one statement per batch, whose rows are handed over one at a
 * time as the database sends them: `next(onRow)` reads the next batch and calls `onRow` for each of
 * its rows in order, and answers false once there was nothing left to read.
 *
 * Nothing here keeps a row. An export that collected each batch first (the driver's array of a
 * thousand rows) kept every row alive while the batch arrived and while its CSV was written; the
 * scavenges that writing triggered found them alive twice and V8 promoted them to the old
 * generation, where they piled up as garbage between full collections (docs/benchmarks.md, "The
 * export in constant memory"). Handed over as it arrives, a row is garbage before the next one.
 */
export type RowBatches<Row> = {
  next(onRow: (row: Row) => void): Promise<boolean>;
  /** Ends the reading: `next` answers false from now on (a statement under way completes first). */
  return(): void;
};

/**
 * `read(after, onRow)` runs the statement for the rows after the bound `after` (null: from the
 * start), at most `size` of them, handing each to `onRow`; `boundOf(last)` is the bound after a
 * batch's last row. A batch shorter than `size` is the last.
 */
export function keysetBatches<Row, Bound>(
  size: number,
  read: (after: Bound | null, onRow: (row: Row) => void) => Promise<void>,
  boundOf: (last: Row) => Bound,
): RowBatches<Row> {
  let after: Bound | null = null;
  let finished = false;
  return {
    async next(onRow) {
      if (finished) return false;
      let count = 0;
      let last: Row | undefined;
      await read(after, (row) => {
        count++;
        last = row;
        onRow(row);
      });
      if (count < size || last === undefined) finished = true;
      else after = boundOf(last);
      return count > 0;
    },
    return() {
      finished = true;
    },
  };
}
