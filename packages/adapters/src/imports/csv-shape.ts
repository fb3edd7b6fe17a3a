import { IMPORT_MAX_CELLS, IMPORT_MAX_ROW_BYTES } from '@fundi/domain/imports';

/** A row over a limit: the line of the text file it starts on, and what it broke (docs/api.md, "Imports"). */
export interface RowLimitFault {
  line: number;
  /** `too_many_cells` or `row_too_long`. */
  code: string;
  message: string;
  /** Where the row starts, counted in bytes from the start of the file. */
  rowOffset: number;
}

// Where the scan stands: outside quotes, inside quotes, or just after a quote inside quotes (the end of the quoted
// cell, or the first half of an escaped `""`).
const OUTSIDE = 0;
const QUOTED = 1;
const QUOTE_IN_QUOTED = 2;

const LF = 0x0a;
const QUOTE = 0x22;
const COMMA = 0x2c;
const BOM = [0xef, 0xbb, 0xbf];

/** An `indexOf` result, with "not found" as `n` (the end of the chunk). */
const at = (found: number, n: number) => (found === -1 ? n : found);

/**
 * Follows a CSV's rows as csv-parse reads them (a quote opens only at the start of a cell, `""` inside quotes is a
 * quote, a line feed inside quotes stays in its row) and stops at the first row holding more than `IMPORT_MAX_CELLS`
 * cells or `IMPORT_MAX_ROW_BYTES` bytes: found as soon as the limit is passed, so a 50 MB line is never held or
 * parsed. What is malformed otherwise (a stray quote) is left to the parser, which reports it.
 *
 * An upload and every read of an import pass each byte through here, so rows are found with `indexOf` (line feeds and
 * quotes only), and cells are counted byte by byte only where there can be too many: in a row longer than the cell
 * limit, and in the part of a row a chunk ends in (a row of fewer bytes than the limit cannot hold more cells).
 */
export class CsvShape {
  /** Rows ended by a line feed so far. */
  rows = 0;
  /** The last byte seen (a line feed before the first). */
  lastByte = LF;
  private state = OUTSIDE;
  /** Cells of the current row in the chunks before this one. */
  private cells = 1;
  private line = 1;
  private rowLine = 1;
  private rowOffset = 0;
  private offset = 0;
  private fault: RowLimitFault | null = null;
  // The next line feed and quote of the chunk being scanned at or after where the scan stands (its length: none),
  // so each is searched for once however many rows the chunk holds.
  private nextLf = -1;
  private nextQuote = -1;

  /** Scans the next bytes of the file; the first fault, once found, is answered from then on. */
  scan(chunk: Buffer): RowLimitFault | null {
    if (this.fault || chunk.length === 0) return this.fault;
    const n = chunk.length;
    const bom = this.offset === 0 && BOM.every((b, k) => chunk[k] === b) ? BOM.length : 0;
    const entry = this.state;
    let rowStart = this.rowOffset - this.offset;
    let i = bom;
    this.nextLf = -1;
    this.nextQuote = -1;
    while (!this.fault) {
      const end = this.rowEnd(chunk, i, bom);
      // The row's part in this chunk, and the state it starts in.
      const from = Math.max(rowStart, bom);
      const startState = rowStart < 0 ? entry : OUTSIDE;
      if (end === n) {
        if (n - rowStart > IMPORT_MAX_ROW_BYTES) this.fault = this.faultAt('row_too_long', rowStart);
        else this.cells = this.countCells(chunk, from, n, startState, rowStart < 0 ? this.cells : 1, rowStart, bom);
        break;
      }
      if (end + 1 - rowStart > IMPORT_MAX_ROW_BYTES) this.fault = this.faultAt('row_too_long', rowStart);
      else if (end + 1 - rowStart > IMPORT_MAX_CELLS)
        this.countCells(chunk, from, end, startState, rowStart < 0 ? this.cells : 1, rowStart, bom);
      if (this.fault) break;
      this.rows++;
      this.line++;
      this.rowLine = this.line;
      this.state = OUTSIDE;
      this.cells = 1;
      rowStart = end + 1;
      i = end + 1;
      if (i === n) break;
    }
    this.lastByte = chunk[n - 1]!;
    this.rowOffset = this.offset + rowStart;
    this.offset += n;
    return this.fault;
  }

  /**
   * The line feed that ends the current row (outside quotes) at or after `i`, or `n` when the row goes on past this
   * chunk; follows the quotes on the way (`this.state`) and counts the line feeds inside them (`this.line`).
   */
  private rowEnd(chunk: Buffer, i: number, bom: number): number {
    const n = chunk.length;
    while (i < n) {
      if (this.nextLf < i) this.nextLf = at(chunk.indexOf(LF, i), n);
      if (this.nextQuote < i) this.nextQuote = at(chunk.indexOf(QUOTE, i), n);
      const q = this.nextQuote;
      if (this.state === QUOTED) {
        for (; this.nextLf < q; this.nextLf = at(chunk.indexOf(LF, this.nextLf + 1), n)) this.line++;
        if (q === n) return n;
        this.state = QUOTE_IN_QUOTED;
        i = q + 1;
        continue;
      }
      if (this.state === QUOTE_IN_QUOTED) {
        if (q === i) {
          this.state = QUOTED;
          i++;
          continue;
        }
        this.state = OUTSIDE;
      }
      if (this.nextLf < q) return this.nextLf;
      if (q === n) return n;
      if (this.opensQuote(chunk, q, bom)) this.state = QUOTED;
      i = q + 1;
    }
    return n;
  }

  /** A quote at `q` opens a quoted cell only at the start of a cell; elsewhere it is text (csv-parse refuses it). */
  private opensQuote(chunk: Buffer, q: number, bom: number): boolean {
    const before = q > bom ? chunk[q - 1] : q === bom && this.offset === 0 ? LF : this.lastByte;
    return before === COMMA || before === LF;
  }

  /**
   * The cells of a row's part `[from, to)` of this chunk, byte by byte, on top of `cells` counted before it; sets the
   * fault when they pass the limit.
   */
  private countCells(
    chunk: Buffer,
    from: number,
    to: number,
    state: number,
    cells: number,
    rowStart: number,
    bom: number,
  ): number {
    for (let i = from; i < to; i++) {
      const b = chunk[i]!;
      if (state === QUOTED) {
        const q = at(chunk.indexOf(QUOTE, i), to);
        if (q >= to) break;
        state = QUOTE_IN_QUOTED;
        i = q;
        continue;
      }
      if (state === QUOTE_IN_QUOTED) {
        if (b === QUOTE) {
          state = QUOTED;
          continue;
        }
        state = OUTSIDE;
      }
      // Letters, digits and most punctuation come after the comma: one comparison passes them.
      if (b > COMMA) continue;
      if (b === COMMA) {
        if (++cells > IMPORT_MAX_CELLS) {
          this.fault = this.faultAt('too_many_cells', rowStart);
          break;
        }
      } else if (b === QUOTE && this.opensQuote(chunk, i, bom)) state = QUOTED;
    }
    return cells;
  }

  private faultAt(code: 'too_many_cells' | 'row_too_long', rowStart: number): RowLimitFault {
    const at = `the row on line ${this.rowLine}`;
    return {
      line: this.rowLine,
      code,
      message:
        code === 'too_many_cells'
          ? `${at} has more than ${IMPORT_MAX_CELLS} cells (at most ${IMPORT_MAX_CELLS} per row)`
          : `${at} is longer than ${IMPORT_MAX_ROW_BYTES} bytes (at most ${IMPORT_MAX_ROW_BYTES} per row; is a quote left open?)`,
      rowOffset: this.offset + rowStart,
    };
  }
}
