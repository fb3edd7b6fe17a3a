/**
 * The records of the plain lines of a CSV text, read as csv-parse reads them with the import's options (BOM dropped,
 * the record delimiter the first line ends with, `"` quoting with `""` inside, every record kept, blank ones too),
 * several times faster: a line is cut by `indexOf` and `slice` where csv-parse looks at every byte and builds each
 * cell in a buffer of its own.
 *
 * Only lines it reads the same as csv-parse are read here: a line with a quoted line break, a stray `\r`, a quote
 * inside an unquoted cell or anything after a closing quote but the delimiter makes `parse` stop at that line's
 * start, and csv-records.ts hands the rest of the file to csv-parse, which reads it (and names its faults) as it
 * would have from the start.
 */
export class PlainLines {
  /** The record delimiter, taken from the first line (null until a line has ended). */
  private rd: '\n' | '\r\n' | null = null;
  private first = true;
  /** Records read so far: csv-parse, taking over, is given as many blank lines before the rest (see `lead`). */
  records = 0;
  private cr = -2;
  private quote = -2;

  constructor(private readonly delimiter: string) {}

  /**
   * Reads the lines of `text` into `out`: whole lines (each ending with the record delimiter), and with `end` also
   * the last one without it. Answers where it stopped in `text`: `text.length` when it read everything it was
   * given, else the start of the first line it left to csv-parse (a last line without its delimiter, before the
   * end, is not read and its start is answered too).
   */
  parse(text: string, out: string[][], end: boolean): number {
    let pos = 0;
    // The next `\r` and `"` at or after a place, looked up again only once passed: a text without them is not
    // searched to its end for every line.
    this.cr = -2;
    this.quote = -2;
    if (this.first && text.length) {
      this.first = false;
      if (text.charCodeAt(0) === 0xfeff) pos = 1;
    }
    while (pos < text.length) {
      const lf = text.indexOf('\n', pos);
      if (lf === -1 && !end) return pos;
      let stop = lf === -1 ? text.length : lf;
      if (lf !== -1) {
        // csv-parse takes its record delimiter from the first line break it meets (outside quotes: a quoted one
        // leaves the line unread here).
        this.rd ??= lf > pos && text.charCodeAt(lf - 1) === 13 ? '\r\n' : '\n';
        if (this.rd === '\r\n') {
          if (lf === pos || text.charCodeAt(lf - 1) !== 13) return pos;
          stop = lf - 1;
        }
      }
      if (this.cr !== -1 && this.cr < pos) this.cr = text.indexOf('\r', pos);
      if (this.cr !== -1 && this.cr < stop) return pos;
      const cells = this.line(text, pos, stop);
      if (!cells) return pos;
      out.push(cells);
      this.records++;
      pos = lf === -1 ? text.length : lf + 1;
    }
    return pos;
  }

  /** What csv-parse is given before the rest: as many empty lines as records were read, so it counts lines on. */
  lead(): string {
    return this.rd && this.records ? this.rd.repeat(this.records) : '';
  }

  /** The cells of `text` from `from` to `to` (one line, no line break in it), or null when it is not plain. */
  private line(text: string, from: number, to: number): string[] | null {
    const d = this.delimiter;
    const cells: string[] = [];
    let pos = from;
    for (;;) {
      if (pos < to && text.charCodeAt(pos) === 34) {
        let value = '';
        let start = pos + 1;
        for (;;) {
          const q = text.indexOf('"', start);
          if (q === -1 || q >= to) return null;
          if (q + 1 < to && text.charCodeAt(q + 1) === 34) {
            value += text.slice(start, q + 1);
            start = q + 2;
            continue;
          }
          value += text.slice(start, q);
          pos = q + 1;
          break;
        }
        cells.push(value);
        if (pos === to) return cells;
        if (text[pos] !== d) return null;
        pos++;
        continue;
      }
      const at = text.indexOf(d, pos);
      const stop = at === -1 || at > to ? to : at;
      if (this.quote !== -1 && this.quote < pos) this.quote = text.indexOf('"', pos);
      if (this.quote !== -1 && this.quote < stop) return null;
      cells.push(text.slice(pos, stop));
      if (stop === to) return cells;
      pos = stop + 1;
    }
  }
}
