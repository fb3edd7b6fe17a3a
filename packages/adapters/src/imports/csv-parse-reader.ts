import { Readable, Transform } from 'node:stream';
import { isUtf8 } from 'node:buffer';
import { CsvFileError, type CsvReader, type CsvRecord, type StagedWorkbook } from '@fundi/application';
import { DomainError, type ImportDelimiter, type ImportFileKind, type ImportFormat } from '@fundi/domain';
import { parse } from 'csv-parse';
import { CsvShape } from './csv-shape.js';
import { TextTranscoder } from './text-encoding.js';
import { stagedSheet } from './workbook-stage.js';
import { isEncryptedWorkbook, OLE_SIGNATURE, oleProblem, peek, XlsxReader, ZIP_SIGNATURE } from './xlsx-reader.js';

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
class Utf8Guard extends Transform {
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

const OPTIONS = { bom: true, relax_column_count: true, skip_empty_lines: false } as const;

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
async function headOf(input: Readable): Promise<{ head: Buffer; all: Readable }> {
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
/** Records handed on at a time (a 64 KB chunk of a learner file holds a few hundred). */
const BATCH_RECORDS = 500;
/** How long parsing and the consumer's work on its records may hold the event loop before others get a turn. */
const TURN_MS = 20;

/** csv-parse's own fault (a quote that never closes) as the file's error; anything else as it is. */
function csvFault(e: unknown): unknown {
  if (e instanceof CsvFileError) return e;
  const err = e as { code?: string; lines?: number; message?: string };
  if (typeof err.code === 'string' && err.code.startsWith('CSV_'))
    return new CsvFileError({ row: err.lines ?? 1, field: 'file', error: `cannot be read as CSV: ${err.message}` });
  return e;
}

/**
 * The records of `input`, in batches: collected from 'data' events and handed on a few hundred at
 * a time (a promise per record, the stream's async iterator, cost more than parsing it). The parser pauses while a
 * batch waits, so memory stays flat.
 */
async function* parseRecords(input: Readable, delimiter: ImportDelimiter): AsyncGenerator<string[][]> {
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
 * csv-parse behind the `CsvReader` port, with a UTF-8, binary and row-limit check in front of it, yielding to the
 * event loop every few milliseconds of work.
 */
export class CsvParseReader implements CsvReader {
  private readonly xlsx = new XlsxReader();

  async *records(
    input: Readable,
    found?: (format: ImportFormat) => void,
    sheet: string | null = null,
  ): AsyncIterable<CsvRecord[]> {
    // Told by the content, never by the name: a ZIP is read as a workbook (docs/api.md, "Imports").
    const { head, all: source } = await peek(input, ZIP_SIGNATURE.length);
    if (head.subarray(0, ZIP_SIGNATURE.length).equals(ZIP_SIGNATURE)) {
      yield* this.xlsx.records(source, sheet, found);
      return;
    }
    const text = new TextTranscoder();
    const guard = new Utf8Guard();
    source.on('error', (e) => text.destroy(e));
    text.on('error', (e) => guard.destroy(e));
    source.pipe(text).pipe(guard);
    // Every record counts, blank ones too (`skip_empty_lines: false`), so the record count is the spreadsheet row.
    let row = 0;
    let turn = performance.now();
    try {
      const { head, all } = await headOf(guard);
      const delimiter = delimiterOf(head);
      found?.({ file: 'csv', encoding: text.encoding, delimiter });
      for await (const batch of parseRecords(all, delimiter)) {
        yield batch.map((cells) => ({ row: ++row, cells }));
        // The time since the last turn includes the consumer's work on the batches: past a few milliseconds, the
        // event loop serves what waits (requests, /health) before the next batch.
        if (performance.now() - turn > TURN_MS) {
          await new Promise<void>((ok) => setImmediate(ok));
          turn = performance.now();
        }
      }
      if (guard.fault) throw guard.fault;
    } catch (e) {
      // The text ended at the guard's fault (perhaps inside a quote, which csv-parse then reports): the fault it is.
      if (guard.fault) throw guard.fault;
      throw csvFault(e);
    } finally {
      source.unpipe?.();
      source.destroy();
      text.destroy();
      guard.destroy();
    }
  }

  stageWorkbook(source: Readable, sheet: string | null, maxDataRows: number): StagedWorkbook {
    return stagedSheet((found) => this.xlsx.records(source, sheet, found, 'options.sheet'), maxDataRows);
  }

  rowLimit(maxDataRows: number): Transform & { dataRows(): number; kind(): ImportFileKind } {
    // Rows are followed as csv-parse reads them (CsvShape), without parsing: many times faster, and the validation
    // step parses properly anyway. The first bytes tell a workbook, which passes uncounted.
    const shape = new CsvShape();
    let kind: ImportFileKind | 'ole' | null = null;
    let oleTail: Buffer = Buffer.alloc(0);
    let oleHead: Buffer = Buffer.alloc(0);
    const refuse = (head: Buffer) =>
      new DomainError('invalid', 'unreadable_workbook', `file: ${oleProblem(head)}`, [
        { field: 'file', message: oleProblem(head) },
      ]);
    const records = () => shape.rows + (shape.lastByte === 0x0a ? 0 : 1);
    const over = () =>
      records() - 1 > maxDataRows
        ? new DomainError('invalid', 'too_many_rows', `The file has more than ${maxDataRows} data rows`, [
            { field: 'file', message: `has more than ${maxDataRows} data rows; split it into several files` },
          ])
        : null;
    const t = new Transform({
      transform(chunk: Buffer, _enc, done) {
        if (kind === null) {
          kind = chunk.subarray(0, ZIP_SIGNATURE.length).equals(ZIP_SIGNATURE)
            ? 'xlsx'
            : chunk.subarray(0, OLE_SIGNATURE.length).equals(OLE_SIGNATURE)
              ? 'ole'
              : 'csv';
          oleHead = kind === 'ole' ? chunk : oleHead;
        }
        if (kind === 'xlsx') return done(null, chunk);
        if (kind === 'ole') {
          // Refused whole: an encrypted workbook names its EncryptedPackage somewhere in its directory.
          const seen = Buffer.concat([oleTail, chunk]);
          if (isEncryptedWorkbook(seen)) return done(refuse(seen));
          oleTail = Buffer.from(seen.subarray(Math.max(0, seen.length - 64)));
          return done();
        }
        const fault = shape.scan(chunk);
        if (fault)
          done(
            new DomainError('invalid', fault.code, `file: ${fault.message}`, [
              { field: 'file', message: fault.message },
            ]),
          );
        else done(over(), chunk);
      },
      flush(done) {
        if (kind === 'ole') return done(refuse(oleHead));
        done(kind === 'xlsx' ? null : over());
      },
    });
    return Object.assign(t, {
      dataRows: () => (kind === 'xlsx' ? 0 : Math.max(0, records() - 1)),
      kind: (): ImportFileKind => (kind === 'xlsx' ? 'xlsx' : 'csv'),
    });
  }
}
