import { IMPORT_MAX_CELLS, IMPORT_MAX_ROW_BYTES } from '@fundi/domain';

/** A row over a limit: the line of the text file it starts on, and what it broke (docs/api.md, "Imports"). */
export interface RowLimitFault {
  line: number;
  /** `too_many_cells` or `row_too_long`. */
  code: string;
  message: string;
  /** Where the row starts, counted in bytes from the start of the file. */
  rowOffset: number;
}

// Where the scan stands: at the start of a cell, inside an unquoted cell, inside quotes, or just after a quote
// inside quotes (the end of the quoted cell, or the first half of an escaped `""`).
const CELL_START = 0;
const UNQUOTED = 1;
const QUOTED = 2;
const QUOTE_IN_QUOTED = 3;

const BOM = [0xef, 0xbb, 0xbf];

/**
 * Follows a CSV's rows byte by byte as csv-parse reads them (a quote opens only at the start of a cell, `""` inside
 * quotes is a quote, a line feed inside quotes stays in its row) and stops at the first row holding more than
 * `IMPORT_MAX_CELLS` cells or `IMPORT_MAX_ROW_BYTES` bytes: found as soon as the limit is passed, so a 50 MB line is
 * never held or parsed. What is malformed otherwise (a stray quote) is left to the parser, which reports it.
 */
export class CsvShape {
  /** Rows ended by a line feed so far. */
  rows = 0;
  /** The last byte seen (a line feed before the first). */
  lastByte = 0x0a;
  private state = CELL_START;
  private cells = 1;
  private line = 1;
  private rowLine = 1;
  private rowOffset = 0;
  private offset = 0;
  private fault: RowLimitFault | null = null;

  /** Scans the next bytes of the file; the first fault, once found, is answered from then on. */
  scan(chunk: Buffer): RowLimitFault | null {
    if (this.fault || chunk.length === 0) return this.fault;
    let { state, cells, line, rows } = this;
    let i = this.offset === 0 && BOM.every((b, k) => chunk[k] === b) ? BOM.length : 0;
    let rowStart = this.rowOffset - this.offset;
    const n = chunk.length;
    for (; i < n; i++) {
      const b = chunk[i]!;
      if (state === QUOTED) {
        // Inside quotes only a quote matters (and line feeds, for the line count): jump to it.
        const q = chunk.indexOf(0x22, i);
        const to = q === -1 ? n : q;
        for (let lf = chunk.indexOf(0x0a, i); lf !== -1 && lf < to; lf = chunk.indexOf(0x0a, lf + 1)) line++;
        if (q === -1) break;
        i = q;
        state = QUOTE_IN_QUOTED;
        continue;
      }
      if (state === QUOTE_IN_QUOTED) {
        if (b === 0x22) {
          state = QUOTED;
          continue;
        }
        state = UNQUOTED;
      }
      if (b === 0x2c) {
        state = CELL_START;
        if (++cells > IMPORT_MAX_CELLS) {
          this.fault = this.faultAt('too_many_cells', rowStart);
          break;
        }
      } else if (b === 0x0a) {
        if (i + 1 - rowStart > IMPORT_MAX_ROW_BYTES) {
          this.fault = this.faultAt('row_too_long', rowStart);
          break;
        }
        rows++;
        line++;
        this.rowLine = line;
        rowStart = i + 1;
        cells = 1;
        state = CELL_START;
      } else if (b === 0x22 && state === CELL_START) state = QUOTED;
      else state = UNQUOTED;
    }
    if (!this.fault && n - rowStart > IMPORT_MAX_ROW_BYTES) this.fault = this.faultAt('row_too_long', rowStart);
    Object.assign(this, { state, cells, line, rows, lastByte: chunk[n - 1]! });
    this.rowOffset = this.offset + rowStart;
    this.offset += n;
    return this.fault;
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
