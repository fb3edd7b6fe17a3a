import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import ExcelJS from 'exceljs';
import { idNumberFor } from './fixtures.js';

// The files the imports bench uploads: the same learners as CSV and as an Excel workbook.

export const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);
export const HEADER =
  'first_name,last_name,id_number,email,mobile,gender,title,equity_code,home_language_code,province_code,employer,employee_ref,home_address_line1,home_address_postal_code,popi_act_agree';
const LANGS = ['Zul', 'Xho', 'Eng', 'Afr', 'Sep'];

/** 100,000 learners with realistic columns, a quoted comma among them, written to disk. */
export async function makeCsv(path: string): Promise<void> {
  async function* lines() {
    yield `${HEADER}\r\n`;
    for (let n = 0; n < ROWS; n += 1000) {
      let chunk = '';
      for (let i = n; i < Math.min(ROWS, n + 1000); i++) {
        const id = idNumberFor(2_000_000 + i);
        const gender = Number(id.slice(6, 10)) < 5000 ? 'F' : 'M';
        chunk += `Name${i},"Surname, ${i}",${id},learner${i}@example.co.za,082${String(i).padStart(7, '0')},${gender},Ms,BA,${LANGS[i % 5]},${1 + (i % 9)},Acme Mining,E${i},${i} Long Street,${String(1000 + (i % 9000))},yes\r\n`;
      }
      yield chunk;
    }
  }
  await pipeline(Readable.from(lines()), createWriteStream(path));
}

/**
 * The same learners as an Excel workbook, written with exceljs's streaming writer: the ID numbers typed as numbers (as
 * a clerk's sheet has them), the other cells text (the mobile and postal code keep their leading 0).
 */
export async function makeXlsx(path: string): Promise<void> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useSharedStrings: true, useStyles: false });
  const ws = wb.addWorksheet('Learners');
  ws.addRow(HEADER.split(',')).commit();
  for (let i = 0; i < ROWS; i++) {
    const id = idNumberFor(2_000_000 + i);
    const gender = Number(id.slice(6, 10)) < 5000 ? 'F' : 'M';
    ws.addRow([
      `Name${i}`,
      `Surname, ${i}`,
      Number(id),
      `learner${i}@example.co.za`,
      `082${String(i).padStart(7, '0')}`,
      gender,
      'Ms',
      'BA',
      LANGS[i % 5]!,
      String(1 + (i % 9)),
      'Acme Mining',
      `E${i}`,
      `${i} Long Street`,
      String(1000 + (i % 9000)),
      'yes',
    ]).commit();
  }
  ws.commit();
  await wb.commit();
}
