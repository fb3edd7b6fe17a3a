import type { TemplateSheet, WorkbookWriter } from '@fundi/application/imports';
import { excelJs } from './exceljs-module.js';

/** Excel's number format "Text" (`@`): what is typed stays as typed. */
const TEXT = '@';
const DATE = 'yyyy-mm-dd';

/** A `yyyy-mm-dd` cell as the date it names (Excel's clock time, which exceljs writes from UTC). */
function dateOf(v: string): Date | string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  return m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : v;
}

/**
 * exceljs behind the `WorkbookWriter` port: each sheet's columns formatted as Text or as dates (the whole column, so
 * rows typed later keep the format), the header row bold and frozen.
 */
export class ExcelJsWorkbookWriter implements WorkbookWriter {
  async write(sheets: readonly TemplateSheet[]): Promise<Buffer> {
    const wb = new (await excelJs()).Workbook();
    for (const s of sheets) {
      const ws = wb.addWorksheet(s.name, { views: [{ state: 'frozen', ySplit: 1 }] });
      ws.columns = s.columns.map((c) => ({
        header: c.name,
        key: c.name,
        width: Math.max(12, c.name.length + 2),
        style: { numFmt: c.format === 'date' ? DATE : TEXT },
      }));
      ws.getRow(1).font = { bold: true };
      for (const r of s.rows) ws.addRow(r.map((v, i) => (s.columns[i]?.format === 'date' && v ? dateOf(v) : v)));
    }
    return Buffer.from(await wb.xlsx.writeBuffer());
  }
}
