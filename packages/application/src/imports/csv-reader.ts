import type { Readable, Transform } from 'node:stream';
import type { ImportFileKind, ImportFormat, RowError, XlsxImportFormat } from '@fundi/domain/imports';

/** One record of a CSV file: `row` is the row a spreadsheet shows (the header is 1; blank rows count). */
export interface CsvRecord {
  row: number;
  cells: string[];
}

/** The file as a whole cannot be read on (not CSV, not UTF-8, a broken quote): reported, never a crash. */
export class CsvFileError extends Error {
  constructor(readonly problem: RowError) {
    super(`${problem.field}: ${problem.error}`);
    this.name = 'CsvFileError';
  }
}

/**
 * Port: streaming CSV (docs/api.md, "Imports"): UTF-8 with or without BOM, UTF-16 with BOM or Windows-1252, cells
 * separated by `,`, `;` or tab (found from the header row), CRLF or LF, quoted fields; and Excel workbooks (.xlsx),
 * told from CSV by their content, whose sheet's rows come as the records of a CSV of it would.
 */
export interface CsvReader {
  /**
   * The records in file order, in batches of those parsed so far (a few hundred: a promise per record would cost
   * more than parsing it), as the bytes arrive; memory stays flat, and the event loop gets a turn every few
   * milliseconds of parsing and of the caller's work on the batches. Every record before a fault is handed on, then
   * `CsvFileError` is thrown naming the line: at the first byte that is not UTF-8, on binary content, on a quote that
   * is never closed, and at the first row over `IMPORT_MAX_CELLS` cells or `IMPORT_MAX_ROW_BYTES` bytes (found as
   * soon as the limit is passed, before the row is parsed). `found` hears the encoding and delimiter once the
   * header row has been read.
   */
  records(source: Readable, found?: (format: ImportFormat) => void, sheet?: string | null): AsyncIterable<CsvRecord[]>;
  /**
   * A pass-through that counts records as the bytes go by and fails with DomainError invalid (field `file`) as soon
   * as more than `maxDataRows` follow the header (`too_many_rows`), or a row passes `IMPORT_MAX_CELLS` cells
   * (`too_many_cells`) or `IMPORT_MAX_ROW_BYTES` bytes (`row_too_long`), the message naming its line. Content it
   * cannot parse otherwise is passed on (the validation step reports it). A workbook (.xlsx) passes uncounted
   * (`kind()` says `xlsx`; its rows are counted by the validation); a password-protected workbook or an old .xls
   * fails with DomainError invalid on `file` saying so.
   */
  rowLimit(maxDataRows: number): Transform & { dataRows(): number; kind(): ImportFileKind };
  /**
   * A workbook as it is stored at upload, read once (by byte ranges: never held whole) into its staged form: the records of its sheet `sheet` (null: the
   * first visible) as a UTF-8 CSV that `records` reads back as the same records (docs/performance.md, "Excel
   * workbooks"). The stream fails with `CsvFileError` when the file is not a readable workbook (field `file`), has
   * no sheet `sheet` (field `options.sheet`) or a row over `IMPORT_MAX_CELLS` cells or `IMPORT_MAX_ROW_BYTES` bytes
   * (field `file`, naming the row), and with DomainError `too_many_rows` as soon as more than `maxDataRows` data
   * rows follow the header, as `rowLimit` does for a CSV.
   */
  stageWorkbook(file: WorkbookFile, sheet: string | null, maxDataRows: number): StagedWorkbook;
}

/** A stored workbook of `size` bytes, opened at a byte range (`end` included, as the file vault counts it). */
export interface WorkbookFile {
  size: number;
  open(range: { start: number; end: number }): Promise<Readable>;
}

/** A workbook's staged CSV as it is written; once it has ended, `staged()` tells its sheet and data rows. */
export type StagedWorkbook = Readable & {
  staged(): { format: XlsxImportFormat; dataRows: number } | null;
};
