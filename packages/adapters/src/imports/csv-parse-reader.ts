import { Transform, type Readable } from 'node:stream';
import { isUtf8 } from 'node:buffer';
import { CsvFileError, type CsvReader, type CsvRecord } from '@fundi/application';
import { DomainError } from '@fundi/domain';
import { parse } from 'csv-parse';

const SAVE_AS = 'save the spreadsheet as "CSV UTF-8 (comma delimited)" and upload that file';

/** Signatures of files people upload instead of a CSV export. */
const BINARY: [Buffer, string][] = [
  [Buffer.from('PK\u0003\u0004', 'latin1'), 'an Excel workbook or another ZIP file'],
  [Buffer.from([0xd0, 0xcf, 0x11, 0xe0]), 'an old Excel workbook (.xls)'],
  [Buffer.from('%PDF', 'latin1'), 'a PDF'],
];

function notCsv(what: string): CsvFileError {
  return new CsvFileError({ row: 1, field: 'file', error: `is not a CSV file (it looks like ${what}); ${SAVE_AS}` });
}

/** Bytes at the end of `b` that begin a UTF-8 sequence the next chunk completes. */
function incompleteTail(b: Buffer): number {
  for (let i = 1; i <= Math.min(3, b.length); i++) {
    const c = b[b.length - i]!;
    if ((c & 0xc0) === 0x80) continue;
    const need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
    return need > i ? i : 0;
  }
  return 0;
}

/** The offset of the first byte that breaks UTF-8 in `b` (which `isUtf8` rejected). */
function firstBadByte(b: Buffer): number {
  for (let i = 0; i < b.length; ) {
    const c = b[i]!;
    const n = c < 0x80 ? 1 : c >= 0xc2 && c < 0xe0 ? 2 : c >= 0xe0 && c < 0xf0 ? 3 : c >= 0xf0 && c < 0xf5 ? 4 : 0;
    if (n === 0 || !isUtf8(b.subarray(i, i + n)) || i + n > b.length) return i;
    i += n;
  }
  return b.length;
}

/** Passes bytes on while they are UTF-8 text; fails with the line of the first byte that is not. */
class Utf8Guard extends Transform {
  private carry = Buffer.alloc(0);
  private lines = 1;
  private first = true;

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: (e?: Error | null, b?: Buffer) => void) {
    let b = this.carry.length ? Buffer.concat([this.carry, chunk]) : chunk;
    if (this.first && b.length) {
      this.first = false;
      const hit = BINARY.find(([sig]) => b.subarray(0, sig.length).equals(sig));
      if (hit) return done(notCsv(hit[1]));
      if (b.subarray(0, 4096).includes(0)) return done(notCsv('binary data'));
    }
    const tail = incompleteTail(b);
    this.carry = tail ? Buffer.from(b.subarray(b.length - tail)) : Buffer.alloc(0);
    b = tail ? b.subarray(0, b.length - tail) : b;
    if (!isUtf8(b)) return done(this.notUtf8(b, firstBadByte(b)));
    this.count(b);
    done(null, b);
  }

  override _flush(done: (e?: Error | null) => void) {
    done(this.carry.length ? this.notUtf8(this.carry, 0) : null);
  }

  private count(b: Buffer, end = b.length) {
    for (let i = b.indexOf(10); i !== -1 && i < end; i = b.indexOf(10, i + 1)) this.lines++;
  }

  private notUtf8(b: Buffer, at: number): CsvFileError {
    this.count(b, at);
    const byte = b[at]!.toString(16).toUpperCase().padStart(2, '0');
    return new CsvFileError({
      row: this.lines,
      field: 'file',
      error: `is not UTF-8 text: byte 0x${byte} on line ${this.lines} (Latin-1 or Windows-1252?); ${SAVE_AS}`,
    });
  }
}

const OPTIONS = { bom: true, relax_column_count: true, skip_empty_lines: false } as const;
/** Records handed on at a time (a 64 KB chunk of a learner file holds a few hundred). */
const BATCH_RECORDS = 500;

/** csv-parse behind the `CsvReader` port, with a UTF-8 and binary check in front of it. */
export class CsvParseReader implements CsvReader {
  async *records(source: Readable): AsyncIterable<CsvRecord[]> {
    const guard = new Utf8Guard();
    const parser = parse(OPTIONS);
    source.on('error', (e) => guard.destroy(e));
    guard.on('error', (e) => parser.destroy(e));
    // Records are collected from 'data' events and handed on in batches: a promise per record (the stream's async
    // iterator) cost more than parsing it. The parser pauses while a batch waits, so memory stays flat.
    let batch: CsvRecord[] = [];
    let ended = false;
    let failure: unknown = null;
    let wake: (() => void) | null = null;
    const notify = () => {
      wake?.();
      wake = null;
    };
    // Every record counts, blank ones too (`skip_empty_lines: false`), so the record count is the spreadsheet row.
    let row = 0;
    parser.on('data', (cells: string[]) => {
      batch.push({ row: ++row, cells });
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
    source.pipe(guard).pipe(parser);
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
    } catch (e) {
      if (e instanceof CsvFileError) throw e;
      const err = e as { code?: string; lines?: number; message?: string };
      if (typeof err.code === 'string' && err.code.startsWith('CSV_'))
        throw new CsvFileError({ row: err.lines ?? 1, field: 'file', error: `cannot be read as CSV: ${err.message}` });
      throw e;
    } finally {
      source.unpipe?.();
      source.destroy();
      parser.destroy();
    }
  }

  rowLimit(maxDataRows: number): Transform & { dataRows(): number } {
    // Records are the line feeds outside quotes (a `""` inside quotes toggles twice): counted byte by byte, which
    // is many times faster than parsing, and the validation step parses properly anyway.
    let quoted = false;
    let feeds = 0;
    let lastByte = 0x0a;
    const records = () => feeds + (lastByte === 0x0a ? 0 : 1);
    const over = () =>
      records() - 1 > maxDataRows
        ? new DomainError('invalid', 'too_many_rows', `The file has more than ${maxDataRows} data rows`, [
            { field: 'file', message: `has more than ${maxDataRows} data rows; split it into several files` },
          ])
        : null;
    const t = new Transform({
      transform(chunk: Buffer, _enc, done) {
        for (let i = 0; i < chunk.length; i++) {
          const b = chunk[i]!;
          if (b === 0x22) quoted = !quoted;
          else if (b === 0x0a && !quoted) feeds++;
        }
        if (chunk.length) lastByte = chunk[chunk.length - 1]!;
        done(over(), chunk);
      },
      flush(done) {
        done(over());
      },
    });
    return Object.assign(t, { dataRows: () => Math.max(0, records() - 1) });
  }
}
