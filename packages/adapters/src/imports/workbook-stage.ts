import { Readable } from 'node:stream';
import { CsvFileError, type CsvRecord, type StagedWorkbook } from '@fundi/application/imports';
import { DomainError } from '@fundi/domain';
import { IMPORT_MAX_ROW_BYTES, type XlsxImportFormat } from '@fundi/domain/imports';

/** A cell as a CSV cell: quoted when it holds a separator (any of `,` `;` tab), a quote or a line break. */
const NEEDS_QUOTES = /[",;\t\r\n]/;
const csvCell = (c: string) => (NEEDS_QUOTES.test(c) ? `"${c.replaceAll('"', '""')}"` : c);

/** Lines gathered before they are handed on as one chunk of bytes. */
const CHUNK_CHARS = 64 * 1024;

/**
 * The staged form of a workbook's sheet (docs/performance.md, "Excel workbooks"): its records as the lines of a
 * UTF-8 CSV, comma-separated, one line per sheet row from row 1 to the last row with a value (a blank row an empty
 * line), so the CSV reader gives back the same records with the same row numbers. Stops with DomainError
 * `too_many_rows` as soon as a row past `maxDataRows` data rows comes (as a CSV's upload does), and with
 * `CsvFileError` at a row over the cell or byte limits (as the reader found it) or whose line passes the byte limit.
 */
export function stagedSheet(
  records: (found: (format: XlsxImportFormat) => void) => AsyncIterable<CsvRecord[]>,
  maxDataRows: number,
): StagedWorkbook {
  let format: XlsxImportFormat | null = null;
  let rows = 0;
  async function* lines(): AsyncGenerator<Buffer> {
    let out = '';
    for await (const batch of records((f) => void (format = f))) {
      for (const { row, cells } of batch) {
        if (row - 1 > maxDataRows)
          throw new DomainError('invalid', 'too_many_rows', `The file has more than ${maxDataRows} data rows`, [
            { field: 'file', message: `has more than ${maxDataRows} data rows; split it into several files` },
          ]);
        if (row !== rows + 1) throw new Error(`sheet row ${row} came after row ${rows}`);
        rows = row;
        const line = cells.length ? cells.map(csvCell).join(',') : '';
        if (line.length > IMPORT_MAX_ROW_BYTES / 3 && Buffer.byteLength(line) > IMPORT_MAX_ROW_BYTES)
          throw new CsvFileError({
            row,
            field: 'file',
            error: `row ${row} is longer than ${IMPORT_MAX_ROW_BYTES} bytes as CSV (at most ${IMPORT_MAX_ROW_BYTES} per row)`,
          });
        out += `${line}\n`;
        if (out.length >= CHUNK_CHARS) {
          yield Buffer.from(out);
          out = '';
        }
      }
    }
    if (out) yield Buffer.from(out);
  }
  return Object.assign(Readable.from(lines(), { objectMode: false }), {
    staged: () => (format ? { format, dataRows: Math.max(0, rows - 1) } : null),
  });
}
