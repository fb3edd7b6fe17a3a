import { Readable } from 'node:stream';
import { CsvFileError, type CsvRecord } from '@fundi/application';
import { IMPORT_MAX_CELLS, IMPORT_MAX_ROW_BYTES, type XlsxImportFormat } from '@fundi/domain';
import type ExcelJS from 'exceljs';
import { excelJs } from './exceljs-module.js';

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

interface SheetEntry {
  name: string;
  state?: string;
}

/** The sheets of the workbook in their order in the workbook, once `xl/workbook.xml` was read (exceljs keeps it). */
function sheetsOf(workbook: object): SheetEntry[] {
  const model: unknown = Reflect.get(workbook, 'model');
  if (typeof model !== 'object' || model === null) return [];
  const sheets: unknown = Reflect.get(model, 'sheets');
  if (!Array.isArray(sheets)) return [];
  return sheets.flatMap((s: unknown) =>
    typeof s === 'object' && s !== null && typeof Reflect.get(s, 'name') === 'string'
      ? [{ name: Reflect.get(s, 'name') as string, state: Reflect.get(s, 'state') as string | undefined }]
      : [],
  );
}

/** The sheet to read: the one named (compared ignoring case, as Excel does), or the first visible one. */
function targetOf(sheets: readonly SheetEntry[], wanted: string | null): SheetEntry | undefined {
  if (wanted !== null) return sheets.find((s) => s.name.toLowerCase() === wanted.toLowerCase());
  return sheets.find((s) => !s.state || s.state === 'visible') ?? sheets[0];
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** A date cell as `yyyy-mm-dd` (with the time of day when it has one); exceljs gives Excel's clock time as UTC. */
function dateText(d: Date): string {
  if (Number.isNaN(d.getTime())) return '';
  const day = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const secs = d.getUTCHours() * 3600 + d.getUTCMinutes() * 60 + d.getUTCSeconds();
  return secs === 0 ? day : `${day} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** A number as its digits: an integer (an ID number typed as a number) exactly, without exponent or `.0`. */
function numberText(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return n.toFixed(0);
  return String(n);
}

/** A number format showing a date (d, m, y outside quotes and brackets; not a number or percentage format). */
function isDateFormat(fmt: string | undefined): boolean {
  if (!fmt) return false;
  const bare = fmt.replace(/"[^"]*"|\[[^\]]*\]|\\./g, '');
  return /[dmy]/i.test(bare) && !/[0#?]/.test(bare.replace(/[dmyhs]+/gi, ''));
}

/** Serial day 0 of the 1900 date system, as Excel counts (its 1900 leap-year bug included for dates after it). */
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);

function serialDate(serial: number, date1904: boolean): Date {
  const days = serial + (date1904 ? 1462 : 0);
  return new Date(EXCEL_EPOCH_MS + Math.round(days * 86_400_000));
}

/** A cell's value as the text a CSV of it would hold. */
function cellText(value: ExcelJS.CellValue, numFmt: string | undefined, date1904: boolean): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return numberText(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value instanceof Date) return dateText(value);
  if ('richText' in value) return value.richText.map((r) => r.text ?? '').join('');
  if ('error' in value) return value.error;
  if ('result' in value) {
    // A formula: its last computed value (a date format on a number result is a date, as Excel shows it).
    const r = value.result;
    if (typeof r === 'number' && isDateFormat(numFmt)) return dateText(serialDate(r, date1904));
    if (r === undefined || r === null || typeof r === 'object') return r instanceof Date ? dateText(r) : '';
    return cellText(r, numFmt, date1904);
  }
  if ('text' in value && typeof value.text === 'string') return value.text;
  return '';
}

/** Whether the workbook counts dates from 1904 (old Mac Excel). */
function uses1904(workbook: object): boolean {
  const props: unknown = Reflect.get(workbook, 'properties');
  if (typeof props !== 'object' || props === null) return false;
  const model: unknown = Reflect.get(props, 'model');
  return typeof model === 'object' && model !== null && Reflect.get(model, 'date1904') === true;
}

/**
 * A sheet left unread: a sheet exceljs copied to a temporary file (its XML came before the shared strings) is read
 * from a file stream, closed here; one read from the ZIP directly is drained by exceljs.
 */
function skip(worksheet: object): void {
  const it: unknown = Reflect.get(worksheet, 'iterator');
  if (it instanceof Readable) it.destroy();
}

/** The sheet's parse events, a batch per chunk of XML (exceljs types them loosely): its rows. */
async function* worksheetEvents(
  worksheet: ExcelJS.stream.xlsx.WorksheetReader,
): AsyncGenerator<{ eventType: string; value: ExcelJS.Row }[]> {
  const it = worksheet.parse();
  for (let r = await it.next(); !r.done; r = await it.next()) yield r.value;
}

/** Records handed on at a time, and how long parsing may hold the event loop before others get a turn. */
const BATCH_RECORDS = 500;
const TURN_MS = 20;

/** A cut-off or broken ZIP or XML, from unzipper or the XML parser: the file's error, anything else as it is. */
function readFault(e: unknown): unknown {
  if (e instanceof CsvFileError) return e;
  const message = e instanceof Error ? e.message : String(e);
  if (/signature|zip|unexpected end|invalid|xml|sax|FILE_ENDED|unclosed|inflate|header/i.test(message))
    return notWorkbook(message.split('\n')[0]!.slice(0, 200));
  return e;
}

/**
 * Reads the rows of one sheet of an .xlsx with exceljs's streaming reader (docs/api.md, "Imports"): shared strings
 * and styles are kept (a file's strings are bounded by its 50 MB), each row is made into CSV-like text cells and
 * dropped, so memory does not grow with the rows. Dates (date-formatted cells, Excel serial dates) come as
 * `yyyy-mm-dd`, numbers as their digits (a 13-digit ID number exactly). Row numbers are the sheet's own: missing
 * (empty) rows between rows are blank records, blank rows after the last row with a value are not records.
 */
export class XlsxReader {
  async *records(
    source: Readable,
    sheet: string | null,
    found?: (format: XlsxImportFormat) => void,
  ): AsyncGenerator<CsvRecord[]> {
    const workbook = new (await excelJs()).stream.xlsx.WorkbookReader(source, {
      worksheets: 'emit',
      sharedStrings: 'cache',
      styles: 'cache',
      hyperlinks: 'ignore',
      entries: 'ignore',
    });
    let read = false;
    let turn = performance.now();
    try {
      for await (const worksheet of workbook) {
        const sheets = sheetsOf(workbook);
        const target = targetOf(sheets, sheet);
        const name = Reflect.get(worksheet, 'name');
        // Every sheet is iterated to its end (the others unread): exceljs removes its temporary copies of sheets only
        // as it goes past them.
        if (read || !target || name !== target.name) {
          skip(worksheet);
          continue;
        }
        read = true;
        found?.({ file: 'xlsx', sheet: target.name });
        const date1904 = uses1904(workbook);
        let batch: CsvRecord[] = [];
        let next = 1;
        let blanks: CsvRecord[] = [];
        // Rows come in the parser's own batches (one per chunk of XML): iterating the sheet row by row costs a
        // promise per row, several times the parsing.
        for await (const events of worksheetEvents(worksheet)) {
          for (const { eventType, value: row } of events) {
            if (eventType !== 'row') continue;
            const cells: string[] = [];
            let bytes = 0;
            row.eachCell({ includeEmpty: false }, (cell, col) => {
              if (col > IMPORT_MAX_CELLS)
                throw fileError(
                  row.number,
                  `row ${row.number} has more than ${IMPORT_MAX_CELLS} cells (at most ${IMPORT_MAX_CELLS} per row)`,
                );
              const text = cellText(cell.value, cell.numFmt, date1904);
              bytes += Buffer.byteLength(text);
              if (bytes > IMPORT_MAX_ROW_BYTES)
                throw fileError(
                  row.number,
                  `row ${row.number} is longer than ${IMPORT_MAX_ROW_BYTES} bytes (at most ${IMPORT_MAX_ROW_BYTES} per row)`,
                );
              while (cells.length < col - 1) cells.push('');
              cells.push(text);
            });
            // Rows missing from the sheet before this one are blank rows, as a CSV of the sheet shows them.
            for (; next < row.number; next++) blanks.push({ row: next, cells: [] });
            next = row.number + 1;
            if (cells.every((c) => c.trim() === '')) {
              blanks.push({ row: row.number, cells: [] });
              continue;
            }
            batch.push(...blanks, { row: row.number, cells });
            blanks = [];
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
        if (batch.length) yield batch;
      }
    } catch (e) {
      throw readFault(e);
    } finally {
      source.destroy();
    }
    if (!read) {
      const names = sheetsOf(workbook).map((s) => s.name);
      if (!names.length) throw notWorkbook('it holds no worksheet');
      throw new CsvFileError({
        row: 1,
        field: 'file',
        error: `has no sheet named "${sheet}" (its sheets: ${names.join(', ')})`,
      });
    }
  }

  /**
   * Reads the whole workbook without its rows, as an upload is checked: throws `CsvFileError` when it is not a
   * readable workbook (field `file`), or has not the sheet named (field `options.sheet`).
   */
  async check(source: Readable, sheet: string | null): Promise<void> {
    const workbook = new (await excelJs()).stream.xlsx.WorkbookReader(source, {
      worksheets: 'emit',
      sharedStrings: 'ignore',
      styles: 'ignore',
      hyperlinks: 'ignore',
      entries: 'ignore',
    });
    let seen = false;
    try {
      for await (const worksheet of workbook) {
        const target = targetOf(sheetsOf(workbook), sheet);
        if (target && Reflect.get(worksheet, 'name') === target.name) seen = true;
        skip(worksheet);
      }
    } catch (e) {
      throw readFault(e);
    } finally {
      source.destroy();
    }
    if (seen) return;
    const names = sheetsOf(workbook).map((s) => s.name);
    if (!names.length) throw notWorkbook('it holds no worksheet: is it another kind of ZIP file?');
    // Named as the upload's option, which the answer to the upload names.
    throw new CsvFileError({
      row: 1,
      field: 'options.sheet',
      error: `has no sheet named "${sheet}" (its sheets: ${names.join(', ')})`,
    });
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
