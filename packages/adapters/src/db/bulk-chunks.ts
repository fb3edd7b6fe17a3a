/**
 * Splits `total` rows into `[from, count]` chunks: as many of `max` rows as fit, the rest in powers of two (1,000
 * rows at 500: two chunks; 990: 500, 256, 128, 64, 32, 8, 2). Each multi-row statement text is prepared once and
 * cached per connection, so bulk inserts of any size use a dozen distinct statements, not one per size met, and a
 * full batch few round trips.
 */
export function bulkChunks(total: number, max: number): [from: number, count: number][] {
  const out: [number, number][] = [];
  let from = 0;
  for (; total - from >= max; from += max) out.push([from, max]);
  for (let size = 1 << Math.floor(Math.log2(max)); size >= 1 && from < total; size >>= 1)
    if (total - from >= size) {
      out.push([from, size]);
      from += size;
    }
  return out;
}
