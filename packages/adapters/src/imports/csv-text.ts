import { isUtf8 } from 'node:buffer';
import { Readable, Transform } from 'node:stream';
import { CsvFileError } from '@fundi/application/imports';
import type { ImportDelimiter } from '@fundi/domain/imports';
import { CsvShape } from './csv-shape.js';

// What the bytes of an upload are taken for before any record is parsed: binary files refused, UTF-8 checked line by
// line (the encoding itself is decided by `TextTranscoder`, text-encoding.ts), the header line read and its
// delimiter chosen. The records are parsed in csv-records.ts.

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

/**
 * Passes the bytes on in whole lines while they are UTF-8 text within the row limits (`CsvShape`). At binary content,
 * at the first byte that is not UTF-8, or at the first row over a limit, it passes on the lines before that row's
 * (or that byte's) line, ends, and keeps the fault with its line (`fault`): the reader reports it after the records
 * before it, and no record is cut short by it. A line is held until its line feed arrives, so at most one row's
 * limit of it.
 */
export class Utf8Guard extends Transform {
  fault: CsvFileError | null = null;
  private readonly shape = new CsvShape();
  private carry = Buffer.alloc(0);
  /** Where `carry` starts, in bytes from the start of the file. */
  private carryOffset = 0;
  private lines = 1;
  private first = true;

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: (e?: Error | null, b?: Buffer) => void) {
    if (this.fault) return done();
    const b = this.carry.length ? Buffer.concat([this.carry, chunk]) : chunk;
    if (this.first && b.length) {
      this.first = false;
      const hit = BINARY.find(([sig]) => b.subarray(0, sig.length).equals(sig));
      if (hit) return this.stop(done, notCsv(hit[1]));
      if (b.subarray(0, 4096).includes(0)) return this.stop(done, notCsv('binary data'));
    }
    const over = this.shape.scan(chunk);
    if (over) {
      const fault = new CsvFileError({ row: over.line, field: 'file', error: over.message });
      return this.pass(b.subarray(0, Math.max(0, over.rowOffset - this.carryOffset)), done, fault);
    }
    const cut = b.lastIndexOf(10) + 1;
    this.carry = cut < b.length ? Buffer.from(b.subarray(cut)) : Buffer.alloc(0);
    this.carryOffset += cut;
    this.pass(b.subarray(0, cut), done);
  }

  override _flush(done: (e?: Error | null, b?: Buffer) => void) {
    if (this.fault || !this.carry.length) return done();
    this.pass(this.carry, done);
  }

  /**
   * Passes `text` (whole lines) on, then stops at `then` when given; or passes the whole lines before its first byte
   * that is not UTF-8 and stops there.
   */
  private pass(text: Buffer, done: (e?: Error | null, b?: Buffer) => void, then?: CsvFileError) {
    if (isUtf8(text)) {
      this.count(text);
      if (then) return this.stop(done, then, text);
      return done(null, text);
    }
    const at = firstBadByte(text);
    this.stop(done, this.notUtf8(text, at), text.subarray(0, text.lastIndexOf(10, at) + 1));
  }

  /** Ends the text at a fault: `before` (whole lines) is the last of it; what follows is dropped. */
  private stop(done: () => void, fault: CsvFileError, before?: Buffer) {
    this.fault = fault;
    if (before?.length) this.push(before);
    this.push(null);
    done();
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
      error: `is not UTF-8 text: byte 0x${byte} on line ${this.lines} is not UTF-8, though the text before it is (are two files pasted together?); ${SAVE_AS}`,
    });
  }
}

/** The separator of the header row: the one of `,` `;` tab it has most of outside quotes (a comma when none). */
export function delimiterOf(head: Buffer): ImportDelimiter {
  const counts = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (const c of head) {
    if (c === 0x22) quoted = !quoted;
    else if (quoted) continue;
    else if (c === 0x0a) break;
    else if (c === 0x2c) counts[',']++;
    else if (c === 0x3b) counts[';']++;
    else if (c === 0x09) counts['\t']++;
  }
  const best = (Object.keys(counts) as ImportDelimiter[]).sort((a, b) => counts[b] - counts[a])[0]!;
  return counts[best] > 0 ? best : ',';
}

/** The first bytes of `input`, up to its first line feed (or its end), and the stream of all of it again. */
export async function headOf(input: Readable): Promise<{ head: Buffer; all: Readable }> {
  const it = input[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const seen: Buffer[] = [];
  for (;;) {
    const next = await it.next();
    if (next.done) break;
    seen.push(next.value);
    if (next.value.includes(0x0a)) break;
  }
  async function* again() {
    yield* seen;
    for (let n = await it.next(); !n.done; n = await it.next()) yield n.value;
  }
  return { head: Buffer.concat(seen), all: Readable.from(again(), { objectMode: false }) };
}
