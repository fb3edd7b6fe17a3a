import { DomainError } from '@fundi/domain';
import { IMPORT_MAX_BYTES, IMPORT_MAX_ROWS, type XlsxImportFormat } from '@fundi/domain/imports';
import { CsvFileError } from './csv-reader.js';
import type { ImportDeps } from './import-ports.js';

/**
 * The staged rows of a workbook may be larger than the workbook (its XML is compressed; the CSV is not): bounded
 * apart, well above what 100,000 rows of a spreadsheet hold.
 */
const IMPORT_MAX_STAGED_BYTES = 4 * IMPORT_MAX_BYTES;

/**
 * A stored workbook (of `size` bytes) is read by byte ranges into its staged rows (stored at `staged`) before the
 * upload is answered, and the workbook removed: one that is no workbook, is broken, lacks the sheet named or passes a limit is refused
 * (invalid input) and nothing of it is kept.
 */
export async function stageWorkbook(
  d: ImportDeps,
  key: string,
  size: number,
  staged: string,
  sheet: string | null,
): Promise<{ format: XlsxImportFormat; dataRows: number }> {
  try {
    const file = { size, open: (range: { start: number; end: number }) => d.files.open(key, range) };
    const rows = d.csv.stageWorkbook(file, sheet, IMPORT_MAX_ROWS);
    await d.files.store(staged, rows, {
      maxBytes: IMPORT_MAX_STAGED_BYTES,
      as: { contentType: 'text/csv', kind: 'document' },
    });
    const done = rows.staged();
    if (!done) throw new Error('the staged rows of a workbook ended without its sheet');
    return done;
  } catch (e) {
    await d.files.remove(staged);
    if (e instanceof CsvFileError) throw DomainError.invalid(e.problem.field, e.problem.error);
    throw e;
  } finally {
    await d.files.remove(key);
  }
}
