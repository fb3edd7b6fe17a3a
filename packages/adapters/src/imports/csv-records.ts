import { Readable } from 'node:stream';
import { CsvFileError, type CsvRecord } from '@fundi/application/imports';
import type { ImportDelimiter } from '@fundi/domain/imports';
import { parse } from 'csv-parse';
import { PlainLines } from './csv-fast.js';

// The records of a CSV text already checked (csv-text.ts), parsed by csv-parse and handed on in batches.

const OPTIONS = { bom: true, relax_column_count: true, skip_empty_lines: false } as const;

/** Records handed on at a time (a 64 KB chunk of a learner file holds a few hundred). */
const BATCH_RECORDS = 500;
/** How long parsing and the consumer's work on its records may hold the event loop before others get a turn. */
const TURN_MS = 20;

/** csv-parse's own fault (a quote that never closes) as the file's error; anything else as it is. */
export function csvFault(e: unknown): unknown {
  if (e instanceof CsvFileError) return e;
  const err = e as { code?: string; lines?: number; message?: string };
  if (typeof err.code === 'string' && err.code.startsWith('CSV_'))
    return new CsvFileError({ row: err.lines ?? 1, field: 'file', error: `cannot be read as CSV: ${err.message}` });
  return e;
}

/**
 * The records of `input`, in batches: its plain lines read by `PlainLines` (csv-fast.ts), chunk by chunk, and from
 * the first line that is not plain on, the rest by csv-parse.
 */
async function* parseRecords(input: Readable, delimiter: ImportDelimiter): AsyncGenerator<string[][]> {
  const plain = new PlainLines(delimiter);
  const chunks = input[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let carry: Buffer | null = null;
  try {
    for (;;) {
      const next: IteratorResult<Buffer> = await chunks.next();
      const bytes: Buffer | null = next.done ? carry : carry ? Buffer.concat([carry, next.value]) : next.value;
      if (!bytes) return;
      // Whole lines are decoded (a line feed is never inside a UTF-8 sequence); the bytes after the last wait.
      const cut: number = next.done ? bytes.length : bytes.lastIndexOf(10) + 1;
      const text = bytes.toString('utf8', 0, cut);
      carry = cut < bytes.length ? bytes.subarray(cut) : null;
      const records: string[][] = [];
      const stop = plain.parse(text, records, !!next.done);
      for (let i = 0; i < records.length; i += BATCH_RECORDS) yield records.slice(i, i + BATCH_RECORDS);
      if (stop < text.length) {
        // csv-parse reads the rest from that line on, after one empty line per record read here: it counts lines
        // (and names them in its errors) as it would have from the start, and those records are skipped.
        const rest = carry;
        async function* from() {
          yield Buffer.from(plain.lead() + text.slice(stop));
          if (rest) yield rest;
          if (next.done) return;
          for (let n = await chunks.next(); !n.done; n = await chunks.next()) yield n.value;
        }
        yield* csvParseRecords(Readable.from(from(), { objectMode: false }), delimiter, plain.records);
        return;
      }
      if (next.done) return;
    }
  } finally {
    await chunks.return?.();
  }
}

/**
 * The records of `input` by csv-parse, in batches, the first `skip` left out: collected from 'data' events and
 * handed on a few hundred at a time (a promise per record, the stream's async iterator, cost more than parsing it).
 * The parser pauses while a batch waits, so memory stays flat.
 */
async function* csvParseRecords(input: Readable, delimiter: ImportDelimiter, skip: number): AsyncGenerator<string[][]> {
  const parser = parse({ ...OPTIONS, delimiter });
  input.on('error', (e) => parser.destroy(e));
  let batch: string[][] = [];
  let ended = false;
  let failure: unknown = null;
  let wake: (() => void) | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  parser.on('data', (cells: string[]) => {
    if (skip > 0) {
      skip--;
      return;
    }
    batch.push(cells);
    if (batch.length >= BATCH_RECORDS) parser.pause();
    notify();
  });
  parser.on('end', () => {
    ended = true;
    notify();
  });
  parser.on('error', (e) => {
    failure = e;
    notify();
  });
  input.pipe(parser);
  try {
    for (;;) {
      if (batch.length) {
        const out = batch;
        batch = [];
        yield out;
        parser.resume();
      } else if (failure) throw failure;
      else if (ended) return;
      else await new Promise<void>((ok) => void (wake = ok));
    }
  } finally {
    input.unpipe(parser);
    parser.destroy();
  }
}

/**
 * The records of `input` in batches, numbered as spreadsheet rows, yielding to the event loop every few milliseconds
 * of work. Every record counts, blank ones too (`skip_empty_lines: false`), so the record count is the row.
 */
export async function* csvRecords(input: Readable, delimiter: ImportDelimiter): AsyncGenerator<CsvRecord[]> {
  let row = 0;
  let turn = performance.now();
  for await (const batch of parseRecords(input, delimiter)) {
    yield batch.map((cells) => ({ row: ++row, cells }));
    // The time since the last turn includes the consumer's work on the batches: past a few milliseconds, the
    // event loop serves what waits (requests, /health) before the next batch.
    if (performance.now() - turn > TURN_MS) {
      await new Promise<void>((ok) => setImmediate(ok));
      turn = performance.now();
    }
  }
}
