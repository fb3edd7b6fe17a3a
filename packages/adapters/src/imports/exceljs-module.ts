import type ExcelJS from 'exceljs';

let loaded: Promise<typeof ExcelJS> | null = null;

/**
 * exceljs, which writes the .xlsx templates (uploaded workbooks are read by `XlsxReader`), loaded the first time a
 * template is written: it takes about 0.3 s to load, which every process that never writes one (the operator CLI's
 * commands, most workers, each test's server) would pay at start.
 */
export function excelJs(): Promise<typeof ExcelJS> {
  loaded ??= import('exceljs').then((m) => m.default);
  return loaded;
}
