import type { AnyKind } from './import-kind.js';

/** One column of a template sheet: `text` cells are formatted as Text, `date` cells as dates. */
export interface TemplateColumn {
  name: string;
  format: 'text' | 'date';
}

/** One sheet of a template workbook: its header row (the columns) and rows (a date cell as `yyyy-mm-dd`). */
export interface TemplateSheet {
  name: string;
  columns: readonly TemplateColumn[];
  rows: readonly (readonly string[])[];
}

/** Port: writes a small workbook (.xlsx) of the sheets given, in memory. */
export interface WorkbookWriter {
  write(sheets: readonly TemplateSheet[]): Promise<Buffer>;
}

/**
 * The .xlsx template of a type (docs/api.md, "Imports"): a sheet with the header row and one example row, every column
 * formatted as Text but the dates (so Excel never turns an ID number into `9.20122E+12`, drops a code's leading 0 or
 * reads a date as mm/dd), and a second sheet `Codes` listing every code of each coded column with its meaning.
 */
export function templateSheets(kind: AnyKind): TemplateSheet[] {
  const { type, columns: cols } = kind;
  return [
    {
      name: type,
      columns: cols.map((c) => ({ name: c.name, format: c.date ? 'date' : 'text' })),
      rows: [cols.map((c) => c.example)],
    },
    {
      name: 'Codes',
      columns: [
        { name: 'column', format: 'text' },
        { name: 'code', format: 'text' },
        { name: 'meaning', format: 'text' },
      ],
      rows: cols.flatMap((c) => Object.entries(c.codes ?? {}).map(([code, meaning]) => [c.name, code, meaning])),
    },
  ];
}
