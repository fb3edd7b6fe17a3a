import { BOM, csvLine } from '../files/csv.js';

type Cell = string | number | boolean | null;

/** Lines are handed on in chunks of about this many bytes (fewer, larger writes to the store). */
const CHUNK = 64 * 1024;

export interface Counter {
  rows: number;
}

/** A CSV (BOM, header, CRLF records) of `fields` over row batches, in chunks; counts the data rows. */
export async function* csvChunks<R>(
  columns: Record<string, (row: R) => Cell>,
  fields: readonly string[],
  batches: AsyncIterable<R[]>,
  count: Counter,
): AsyncGenerator<Buffer> {
  const getters = fields.map((f) => columns[f]!);
  let out = BOM + csvLine(fields);
  const values: Cell[] = new Array(getters.length);
  for await (const batch of batches) {
    for (const row of batch) {
      for (let i = 0; i < getters.length; i++) values[i] = getters[i]!(row);
      out += csvLine(values);
      count.rows++;
      if (out.length >= CHUNK) {
        yield Buffer.from(out, 'utf8');
        out = '';
      }
    }
  }
  if (out) yield Buffer.from(out, 'utf8');
}
