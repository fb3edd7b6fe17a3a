import { Readable } from 'node:stream';
import { CsvFileError, type CsvRecord } from '@fundi/application/imports';
import { IMPORT_MAX_BYTES, type XlsxImportFormat } from '@fundi/domain/imports';
import { SheetRows } from './sheet-rows.js';
import { cellParts, type SheetEntry, workbookOf } from './workbook-parts.js';
import { XmlFault, XmlScanner } from './xml-scan.js';
import { endHeld, entryChunks, heldZip, type ZipBytes, ZipFault, zipEntries } from './zip-directory.js';

/** The first bytes of a ZIP file (an .xlsx is one). */
export const ZIP_SIGNATURE = Buffer.from('PK\u0003\u0004', 'latin1');
/** The first bytes of an OLE compound file: an old .xls, or an .xlsx saved with a password (encrypted). */
export const OLE_SIGNATURE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
/** An encrypted workbook's stream name, as UTF-16 in the OLE directory. */
const ENCRYPTED_PACKAGE = Buffer.from('EncryptedPackage', 'utf16le');

const SAVE_AS = 'open it in Excel and save it as "Excel Workbook (.xlsx)" or "CSV UTF-8 (comma delimited)"';

/** Whether these bytes of an OLE file name an encrypted workbook's package. */
export const isEncryptedWorkbook = (bytes: Buffer) => bytes.includes(ENCRYPTED_PACKAGE);

/** What an OLE file is (by its head: an encrypted workbook names its `EncryptedPackage`), as a user would say it. */
export function oleProblem(head: Buffer): string {
  return isEncryptedWorkbook(head)
    ? 'is a password-protected (encrypted) Excel workbook, which cannot be read: in Excel, remove the password (File, Info, Protect Workbook, Encrypt with Password: clear it), save, and upload it again'
    : `is an old Excel workbook (.xls) or another Office file, which is not read: ${SAVE_AS}`;
}

const fileError = (row: number, error: string) => new CsvFileError({ row, field: 'file', error });

/** A workbook that cannot be read as one (not a ZIP of a workbook, a broken ZIP, broken XML). */
const notWorkbook = (why: string) =>
  fileError(1, `cannot be read as an Excel workbook (${why}); ${SAVE_AS}, and upload it again`);

/** The sheet to read: the one named (compared ignoring case, as Excel does), or the first visible one. */
function targetOf(sheets: readonly SheetEntry[], wanted: string | null): SheetEntry | undefined {
  if (wanted !== null) return sheets.find((s) => s.name.toLowerCase() === wanted.toLowerCase());
  const worksheets = sheets.filter((s) => s.part);
  return worksheets.find((s) => !s.state || s.state === 'visible') ?? worksheets[0];
}

/** Records handed on at a time, and how long parsing may hold the event loop before others get a turn. */
const BATCH_RECORDS = 500;
const TURN_MS = 20;

/** A broken ZIP or XML: the file's error; anything else as it is. */
function readFault(e: unknown): unknown {
  if (e instanceof ZipFault || e instanceof XmlFault) return notWorkbook(e.message);
  if (e instanceof RangeError) return notWorkbook(e.message.split('\n')[0]!.slice(0, 200));
  return e;
}

/** The whole file of a stream (at most `IMPORT_MAX_BYTES`; a workbook is read from its end first). */
async function bytesOf(source: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of source) {
    const b = Buffer.isBuffer(c) ? c : Buffer.from(c as string);
    size += b.length;
    if (size > IMPORT_MAX_BYTES) throw notWorkbook(`it is larger than ${IMPORT_MAX_BYTES} bytes`);
    chunks.push(b);
  }
  return Buffer.concat(chunks, size);
}

/**
 * The workbook's directory and its sheets; throws the file's error when it is no workbook, or lacks the sheet (on
 * `missing`: the upload's `options.sheet`, or the file when a stored file is read).
 */
async function open(file: ZipBytes, sheet: string | null, missing: 'file' | 'options.sheet') {
  const zip = await endHeld(file);
  const entries = await zipEntries(zip);
  const workbook = await workbookOf(zip, entries);
  if (!workbook?.sheets.length) throw notWorkbook('it holds no worksheet: is it another kind of ZIP file?');
  const target = targetOf(workbook.sheets, sheet);
  if (!target?.part)
    throw new CsvFileError({
      row: 1,
      field: missing,
      error: `has no sheet named "${sheet}" (its sheets: ${workbook.sheets.map((s) => s.name).join(', ')})`,
    });
  return { zip, entries, workbook, target: { name: target.name, part: target.part } };
}

/**
 * Reads the rows of one sheet of an .xlsx (docs/api.md, "Imports"; docs/performance.md, "Excel workbooks"): its ZIP
 * directory read from the end, the shared strings (a chunk at a time, keeping only the strings) and the cell styles
 * read first, then the sheet's XML inflated and scanned a chunk at a time into CSV-like text cells, so memory does
 * not grow with the rows. A stored workbook is read by byte ranges, never held whole; a stream of one is held whole
 * (at most the upload limit) and read the same way. Dates (date-formatted cells, Excel serial dates, ISO date
 * cells) come as `yyyy-mm-dd`, numbers as their digits (a 13-digit ID number exactly). Row numbers are the sheet's
 * own: missing (empty) rows between rows are blank records, blank rows after the last row with a value are not
 * records.
 */
export class XlsxReader {
  async *records(
    source: Readable,
    sheet: string | null,
    found?: (format: XlsxImportFormat) => void,
    missing: 'file' | 'options.sheet' = 'file',
  ): AsyncGenerator<CsvRecord[]> {
    try {
      yield* this.recordsOf(heldZip(await bytesOf(source)), sheet, found, missing);
    } finally {
      source.destroy();
    }
  }

  /** The records of a workbook read by byte ranges (a stored file, opened at each part). */
  async *recordsOf(
    file: ZipBytes,
    sheet: string | null,
    found?: (format: XlsxImportFormat) => void,
    missing: 'file' | 'options.sheet' = 'file',
  ): AsyncGenerator<CsvRecord[]> {
    let turn = performance.now();
    try {
      const { zip, entries, workbook, target } = await open(file, sheet, missing);
      const rows = new SheetRows({
        sheets: workbook.sheets,
        date1904: workbook.date1904,
        ...(await cellParts(zip, entries, workbook.part)),
      });
      found?.({ file: 'xlsx', sheet: target.name });
      const xml = new XmlScanner(rows);
      let batch: CsvRecord[] = [];
      for await (const chunk of entryChunks(zip, entries.get(target.part)!)) {
        // Each byte as a character (SheetRows reads the text of values as UTF-8 again): a sheet's XML is nearly all
        // ASCII, and decoding all of it as UTF-8 costs more than scanning it.
        xml.feed(chunk.toString('latin1'));
        if (rows.out.length) {
          for (const r of rows.out) batch.push(r);
          rows.out = [];
        }
        if (batch.length >= BATCH_RECORDS) {
          yield batch;
          batch = [];
        }
        if (performance.now() - turn > TURN_MS) {
          await new Promise<void>((ok) => setImmediate(ok));
          turn = performance.now();
        }
      }
      xml.end();
      for (const r of rows.out) batch.push(r);
      if (batch.length) yield batch;
    } catch (e) {
      throw readFault(e);
    }
  }
}

/** The first `n` bytes of `input` (fewer when it is shorter), and the stream of all of it again. */
export async function peek(input: Readable, n: number): Promise<{ head: Buffer; all: Readable }> {
  const it = input[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const seen: Buffer[] = [];
  let size = 0;
  while (size < n) {
    const next = await it.next();
    if (next.done) break;
    seen.push(next.value);
    size += next.value.length;
  }
  async function* again() {
    try {
      yield* seen;
      for (let r = await it.next(); !r.done; r = await it.next()) yield r.value;
    } finally {
      await it.return?.();
    }
  }
  return { head: Buffer.concat(seen), all: Readable.from(again(), { objectMode: false }) };
}
