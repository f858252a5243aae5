/**
 * Rows read in batches by keyset, one statement per batch, as an async iterable: `read(after)`
 * answers the rows after the bound `after` (null: from the start) and the bound for the next batch;
 * a batch shorter than `size` is the last.
 *
 * Written as an iterator object rather than an async generator on purpose: a generator's suspended
 * frame keeps the batch it yielded alive until it is resumed and its next statement answers, so
 * every batch outlived its CSV's writing and V8 promoted its rows to the old generation, where they
 * piled up as garbage between full collections (docs/benchmarks.md, "The export in constant
 * memory"). Here nothing of a batch is held once `next()` has answered it.
 */
export function keysetBatches<Row, Bound>(
  size: number,
  read: (after: Bound | null) => Promise<{ rows: Row[]; next: Bound | null }>,
): AsyncIterable<Row[]> {
  return {
    [Symbol.asyncIterator]() {
      let after: Bound | null = null;
      let finished = false;
      return {
        async next(): Promise<IteratorResult<Row[], undefined>> {
          if (finished) return { done: true, value: undefined };
          const batch = await read(after);
          if (batch.rows.length < size || batch.next === null) finished = true;
          after = batch.next;
          if (!batch.rows.length) return { done: true, value: undefined };
          return { done: false, value: batch.rows };
        },
        async return(): Promise<IteratorResult<Row[], undefined>> {
          finished = true;
          return { done: true, value: undefined };
        },
      };
    },
  };
}
