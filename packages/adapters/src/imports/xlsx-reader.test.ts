import { Readable } from 'node:stream';
import { CsvFileError } from '@fundi/application/imports';
import { DomainError } from '@fundi/domain';
import { IMPORT_MAX_CELLS, type ImportFormat } from '@fundi/domain/imports';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { CsvParseReader } from './csv-parse-reader.js';

const reader = new CsvParseReader();

/** A workbook made with exceljs: each sheet's rows as given (a Date a date cell, a number a number cell). */
async function workbook(
  sheets: Record<string, (string | number | Date | null)[][]>,
  edit?: (wb: ExcelJS.Workbook) => void,
): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) {
    const ws = wb.addWorksheet(name);
    for (const r of rows) ws.addRow(r);
  }
  edit?.(wb);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const chunked = (b: Buffer, size: number) =>
  Readable.from(Array.from({ length: Math.ceil(b.length / size) }, (_, i) => b.subarray(i * size, (i + 1) * size)));

async function read(b: Buffer, sheet: string | null = null, size = 4096) {
  const out: { row: number; cells: string[] }[] = [];
  let format: ImportFormat | null = null;
  for await (const batch of reader.records(chunked(b, size), (f) => void (format = f), sheet)) out.push(...batch);
  return { rows: out, format };
}

async function fault(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (e instanceof CsvFileError) return `${e.problem.field} row ${e.problem.row}: ${e.problem.error}`;
    if (e instanceof DomainError) return `${e.details[0]?.field}: ${e.details[0]?.message}`;
    throw e;
  }
  throw new Error('expected a fault');
}

/** The staged rows of a workbook (as the upload stores them), with what staging found. */
async function stage(b: Buffer, sheet: string | null = null, maxDataRows = 100_000) {
  const file = {
    size: b.length,
    open: async (r: { start: number; end: number }) => chunked(b.subarray(r.start, r.end + 1), 1000),
  };
  const staged = reader.stageWorkbook(file, sheet, maxDataRows);
  const chunks: Buffer[] = [];
  for await (const c of staged) chunks.push(c as Buffer);
  return { csv: Buffer.concat(chunks), staged: staged.staged() };
}

/** The upload check: the counting pass-through, then the staging of what it passed. */
async function upload(b: Buffer, sheet: string | null = null) {
  const counter = reader.rowLimit(100_000);
  const chunks: Buffer[] = [];
  await new Promise<void>((ok, fail) => {
    chunked(b, 1000)
      .pipe(counter)
      .on('data', (c: Buffer) => chunks.push(c))
      .on('end', ok)
      .on('error', fail);
  });
  expect(Buffer.concat(chunks).equals(b)).toBe(true);
  await stage(b, sheet);
  return counter.kind();
}

describe('XlsxReader (through CsvParseReader)', () => {
  it('reads dates as dates, a 13-digit ID number typed as a number exactly, and text as text', async () => {
    const b = await workbook({
      Learners: [
        ['first_name', 'last_name', 'id_number', 'date_of_birth', 'province_code', 'popi_act_agree'],
        ['Zoë', 'Müller', 9202204720083, new Date(Date.UTC(1992, 1, 20)), 'Gauteng', 'yes'],
        ['Thandi', 'Mokoena', '0101015009087', new Date(Date.UTC(2001, 0, 1, 10, 30)), 'KZN', null],
      ],
    });
    const { rows, format } = await read(b, null, 977);
    expect(format).toEqual({ file: 'xlsx', sheet: 'Learners' });
    expect(rows).toEqual([
      { row: 1, cells: ['first_name', 'last_name', 'id_number', 'date_of_birth', 'province_code', 'popi_act_agree'] },
      { row: 2, cells: ['Zoë', 'Müller', '9202204720083', '1992-02-20', 'Gauteng', 'yes'] },
      { row: 3, cells: ['Thandi', 'Mokoena', '0101015009087', '2001-01-01 10:30:00', 'KZN'] },
    ]);
  });

  it('reads a serial date of a date-formatted cell (as Excel stores them) and a formula by its result', async () => {
    const b = await workbook({ S: [['d', 'f', 'n']] }, (wb) => {
      const ws = wb.getWorksheet('S')!;
      const r = ws.addRow([46096, { formula: 'A2+1', result: 46097 }, 0.5]);
      r.getCell(1).numFmt = 'yyyy/mm/dd';
      r.getCell(2).numFmt = 'dd/mm/yyyy';
    });
    expect((await read(b)).rows[1]).toEqual({ row: 2, cells: ['2026-03-15', '2026-03-16', '0.5'] });
  });

  it('reads the sheet named (any case), else the first; a missing sheet names the sheets there are', async () => {
    const b = await workbook({ Notes: [['read me']], Data: [['a'], ['1']] });
    expect((await read(b)).rows).toEqual([{ row: 1, cells: ['read me'] }]);
    expect(await read(b, 'data')).toEqual({
      rows: [
        { row: 1, cells: ['a'] },
        { row: 2, cells: ['1'] },
      ],
      format: { file: 'xlsx', sheet: 'Data' },
    });
    expect(await fault(read(b, 'Learners'))).toBe(
      'file row 1: has no sheet named "Learners" (its sheets: Notes, Data)',
    );
    expect(await fault(upload(b, 'Learners'))).toBe(
      'options.sheet row 1: has no sheet named "Learners" (its sheets: Notes, Data)',
    );
    expect(await upload(b, 'Data')).toBe('xlsx');
  });

  it('numbers rows as the sheet does: empty rows between are blank rows, empty rows at the end are none', async () => {
    const b = await workbook({ S: [] }, (wb) => {
      const ws = wb.getWorksheet('S')!;
      ws.getCell('A1').value = 'a';
      ws.getCell('C4').value = 'x';
      ws.getCell('A6').numFmt = '@';
      ws.getCell('A7').value = '';
    });
    expect((await read(b)).rows).toEqual([
      { row: 1, cells: ['a'] },
      { row: 2, cells: [] },
      { row: 3, cells: [] },
      { row: 4, cells: ['', '', 'x'] },
    ]);
  });

  it('stops at a row over the cell limit, naming the row', async () => {
    const wide = Array.from({ length: IMPORT_MAX_CELLS + 1 }, (_, i) => `c${i}`);
    const b = await workbook({ S: [['a'], wide] });
    expect(await fault(read(b))).toBe(
      `file row 2: row 2 has more than ${IMPORT_MAX_CELLS} cells (at most ${IMPORT_MAX_CELLS} per row)`,
    );
    // As the upload stages it, too.
    expect(await fault(stage(b))).toBe(
      `file row 2: row 2 has more than ${IMPORT_MAX_CELLS} cells (at most ${IMPORT_MAX_CELLS} per row)`,
    );
  });

  it('refuses a ZIP that is not a workbook, a broken workbook, an encrypted workbook and an .xls, saying which', async () => {
    const good = await workbook({ S: [['a'], ['1']] });
    expect(await fault(upload(good.subarray(0, Math.floor(good.length / 2))))).toMatch(
      /^file row 1: cannot be read as an Excel workbook \(.+\); open it in Excel and save it as/,
    );
    // A ZIP holding something else (the local file header of one stored file, then the central directory's end).
    const name = Buffer.from('hello.txt');
    const data = Buffer.from('hello');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    const zip = Buffer.concat([local, name, data, end]);
    expect(await fault(upload(zip))).toMatch(/^file row 1: cannot be read as an Excel workbook \(.*no worksheet/);
    const ole = Buffer.alloc(4096);
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(ole);
    expect(await fault(upload(ole))).toMatch(/^file: is an old Excel workbook \(\.xls\)/);
    Buffer.from('EncryptedPackage', 'utf16le').copy(ole, 3000);
    expect(await fault(upload(ole))).toMatch(/^file: is a password-protected \(encrypted\) Excel workbook/);
  });

  it('reads a sheet of many rows to its last, in order and exactly', async () => {
    const rows: (string | number)[][] = [['first_name', 'last_name', 'id_number']];
    for (let i = 0; i < 5_000; i++) rows.push([`First${i}`, `Last${i}`, 8_000_000_000_000 + i]);
    const b = await workbook({ S: rows });
    let n = 0;
    let last = '';
    for await (const batch of reader.records(Readable.from([b]))) {
      n += batch.length;
      last = batch.at(-1)!.cells[2]!;
    }
    expect(n).toBe(5_001);
    expect(last).toBe('8000000004999');
  }, 90_000);

  it('stages a sheet as CSV that reads back as the same records, rows and format; limits found as it is staged', async () => {
    const b = await workbook({ Notes: [['x']], Learners: [] }, (wb) => {
      const ws = wb.getWorksheet('Learners')!;
      ws.getCell('A1').value = 'name';
      ws.getCell('B1').value = 'note';
      ws.getCell('A3').value = 'Zoë "Z", Müller; jr';
      ws.getCell('B3').value = 'two\nlines\tand a tab';
      ws.getCell('C4').value = 9202204720083;
      ws.getCell('A5').value = new Date(Date.UTC(1992, 1, 20));
    });
    const { csv, staged } = await stage(b, 'learners');
    expect(staged).toEqual({ format: { file: 'xlsx', sheet: 'Learners' }, dataRows: 4 });
    const back: { row: number; cells: string[] }[] = [];
    for await (const batch of reader.records(Readable.from([csv]))) back.push(...batch);
    const direct = (await read(b, 'learners')).rows;
    expect(back.map((r) => ({ row: r.row, cells: r.cells.join('') ? r.cells : [] }))).toEqual(direct);
    expect(direct[2]).toEqual({ row: 3, cells: ['Zoë "Z", Müller; jr', 'two\nlines\tand a tab'] });
    expect(direct[3]).toEqual({ row: 4, cells: ['', '', '9202204720083'] });
    expect(await fault(stage(b, 'learners', 3))).toBe('file: has more than 3 data rows; split it into several files');
    expect((await stage(b, 'Learners', 4)).staged?.dataRows).toBe(4);
  });
});
