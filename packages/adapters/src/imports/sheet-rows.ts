import { CsvFileError, type CsvRecord } from '@fundi/application/imports';
import { IMPORT_MAX_CELLS, IMPORT_MAX_ROW_BYTES } from '@fundi/domain/imports';
import type { WorkbookParts } from './workbook-parts.js';
import { attr, officeText, type XmlHandler, xmlText } from './xml-scan.js';

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** A date as `yyyy-mm-dd` (with the time of day when it has one): Excel's clock time, held as UTC. */
export function dateText(d: Date): string {
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

/** Serial day 0 of the 1900 date system, as Excel counts (its 1900 leap-year bug included for dates after it). */
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);

const serialDate = (serial: number, date1904: boolean) =>
  new Date(EXCEL_EPOCH_MS + Math.round((serial + (date1904 ? 1462 : 0)) * 86_400_000));

/** An ISO 8601 date cell (`t="d"`): Excel's clock time, so without a zone it is read as UTC. */
const isoDate = (v: string) => new Date(/T.*(Z|[+-]\d\d:?\d\d)$/i.test(v) || !v.includes('T') ? v : `${v}Z`);

/** The column of a cell reference (`C12` is 3); 0 when it has none. */
function columnOf(ref: string): number {
  let col = 0;
  for (let i = 0; i < ref.length; i++) {
    const c = ref.charCodeAt(i) | 0x20;
    if (c < 0x61 || c > 0x7a) break;
    col = col * 26 + (c - 0x60);
  }
  return col;
}

const NOT_ASCII = /[\u0080-\u00ff]/;

const fileError = (row: number, error: string) => new CsvFileError({ row, field: 'file', error });

/**
 * Turns a sheet's XML events into records, as a CSV of the sheet would hold them: each cell's value as its text
 * (shared and inline strings, numbers as their digits, booleans, errors, a formula by its last result, a number in
 * a date style as a date), rows numbered as the sheet numbers them. Rows missing between rows are blank records;
 * blank rows after the last row with a value are none. A row over `IMPORT_MAX_CELLS` cells or
 * `IMPORT_MAX_ROW_BYTES` bytes throws `CsvFileError` naming it.
 */
export class SheetRows implements XmlHandler {
  /** Records complete so far; the reader takes them. */
  out: CsvRecord[] = [];
  private blanks: CsvRecord[] = [];
  private next = 1;
  private inData = false;
  private row = 0;
  private cells: string[] | null = null;
  private bytes = 0;
  private col = 0;
  private type: string | undefined;
  private dateStyle = false;
  private formula = false;
  private value: string[] | null = null;
  private capture = false;
  private phonetic = 0;

  constructor(private readonly parts: WorkbookParts) {}

  get wantsText(): boolean {
    return this.capture;
  }

  open(name: string, xml: string, from: number, to: number): void {
    if (!this.inData) {
      if (name === 'sheetData') this.inData = true;
      return;
    }
    switch (name) {
      case 'row': {
        const r = attr(xml, from, to, 'r');
        this.row = r ? Number.parseInt(r, 10) : this.row + 1;
        this.cells = [];
        this.bytes = 0;
        this.col = 0;
        return;
      }
      case 'c': {
        const r = attr(xml, from, to, 'r');
        this.col = (r && columnOf(r)) || this.col + 1;
        this.type = attr(xml, from, to, 't');
        const s = attr(xml, from, to, 's');
        this.dateStyle = s !== undefined && this.parts.dateStyles[Number.parseInt(s, 10)] === true;
        this.formula = false;
        this.value = null;
        return;
      }
      case 'v':
        this.value = [];
        this.capture = true;
        return;
      case 'is':
        this.value = [];
        return;
      case 't':
        if (this.value && !this.phonetic) this.capture = true;
        return;
      case 'rPh':
        this.phonetic++;
        return;
      case 'f':
        this.formula = true;
        return;
    }
  }

  /** The sheet's XML comes as one character per byte: a value's text is its UTF-8 bytes read again. */
  text(t: string, cdata: boolean): void {
    if (!this.capture) return;
    const u = NOT_ASCII.test(t) ? Buffer.from(t, 'latin1').toString('utf8') : t;
    this.value!.push(cdata ? u : xmlText(u));
  }

  close(name: string): void {
    if (!this.inData) return;
    switch (name) {
      case 'v':
      case 't':
        this.capture = false;
        return;
      case 'rPh':
        this.phonetic--;
        return;
      case 'c':
        if (this.value && this.cells) this.cell(this.value.length === 1 ? this.value[0]! : this.value.join(''));
        this.value = null;
        return;
      case 'row':
        this.endRow();
        return;
      case 'sheetData':
        this.inData = false;
        return;
    }
  }

  /** A cell's text, by its type. */
  private text_(v: string): string | null {
    const { parts } = this;
    switch (this.type) {
      case 's': {
        const s = parts.sharedStrings.get(Number.parseInt(v, 10));
        return s === undefined ? null : s;
      }
      case 'str':
      case 'inlineStr':
        return officeText(v);
      case 'b':
        return Number.parseInt(v, 10) !== 0 ? 'true' : 'false';
      case 'e':
        return v;
      case 'd':
        return dateText(isoDate(v.trim()));
      default: {
        if (v.trim() === '') return this.formula ? '' : null;
        const n = Number.parseFloat(v);
        if (Number.isNaN(n)) return this.formula ? '' : v;
        return this.dateStyle ? dateText(serialDate(n, parts.date1904)) : numberText(n);
      }
    }
  }

  private cell(v: string): void {
    const text = this.text_(v);
    if (text === null) return;
    const row = this.row;
    if (this.col > IMPORT_MAX_CELLS)
      throw fileError(row, `row ${row} has more than ${IMPORT_MAX_CELLS} cells (at most ${IMPORT_MAX_CELLS} per row)`);
    this.bytes += Buffer.byteLength(text);
    if (this.bytes > IMPORT_MAX_ROW_BYTES)
      throw fileError(
        row,
        `row ${row} is longer than ${IMPORT_MAX_ROW_BYTES} bytes (at most ${IMPORT_MAX_ROW_BYTES} per row)`,
      );
    const cells = this.cells!;
    while (cells.length < this.col - 1) cells.push('');
    cells.push(text);
  }

  private endRow(): void {
    const cells = this.cells;
    if (!cells) return;
    this.cells = null;
    // Rows missing from the sheet before this one are blank rows, as a CSV of the sheet shows them.
    for (; this.next < this.row; this.next++) this.blanks.push({ row: this.next, cells: [] });
    this.next = this.row + 1;
    if (cells.every((c) => c.trim() === '')) {
      this.blanks.push({ row: this.row, cells: [] });
      return;
    }
    if (this.blanks.length) {
      for (const b of this.blanks) this.out.push(b);
      this.blanks = [];
    }
    this.out.push({ row: this.row, cells });
  }
}
