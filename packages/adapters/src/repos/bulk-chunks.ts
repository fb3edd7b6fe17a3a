/**
 * Splits `total` rows into `[from, count]` chunks whose counts are powers of two up to `max` (1,000 rows: 512, 256,
 * 128, 64, 32, 8). Each multi-row statement text is prepared once and cached per connection, so bulk inserts of
 * any size use at most log2(max) + 1 distinct statements instead of one per size met.
 */
export function powerOfTwoChunks(total: number, max: number): [from: number, count: number][] {
  const out: [number, number][] = [];
  let from = 0;
  for (let size = max; size >= 1 && from < total; size >>= 1)
    while (total - from >= size) {
      out.push([from, size]);
      from += size;
    }
  return out;
}
