import { officeText, XmlFault, XmlScanner, xmlText } from './xml-scan.js';

/** Bytes of one block of the table; a string of more bytes than that is kept apart, as a string. */
const BLOCK = 1 << 20;
/** Strings kept as made (a power of two). */
const CACHE = 4096;
/** A length that marks a string kept apart. */
const APART = 0xffffffff;

/**
 * A workbook's shared strings, by index, held as their UTF-8 bytes in blocks of 1 MB with an offset and a length
 * for each: on the bench's workbook (609,000 strings, 8.2 million characters) about 13 MB outside V8's heap where a
 * string each took 27 MB of it (docs/performance.md, "Memory"). A string is made when a cell asks for it, and the
 * last made are kept by index (a sheet names the same few strings, a title, a province, "yes", row after row).
 */
export class SharedStrings {
  private readonly blocks: Buffer[] = [];
  private used = BLOCK;
  private starts = new Uint32Array(1024);
  private lengths = new Uint32Array(1024);
  private readonly apart = new Map<number, string>();
  /** How many strings there are. */
  length = 0;

  /** The strings made last, by their index modulo `CACHE`. */
  private readonly madeIndex = new Int32Array(CACHE).fill(-1);
  private readonly madeText: string[] = new Array<string>(CACHE).fill('');

  /** The string at `index`; undefined when there is none. */
  get(index: number): string | undefined {
    if (!(index >= 0 && index < this.length)) return undefined;
    const slot = index & (CACHE - 1);
    if (this.madeIndex[slot] === index) return this.madeText[slot];
    const length = this.lengths[index]!;
    if (length === APART) return this.apart.get(index);
    const start = this.starts[index]!;
    const at = start % BLOCK;
    const s = this.blocks[(start - at) / BLOCK]!.toString('utf8', at, at + length);
    this.madeIndex[slot] = index;
    this.madeText[slot] = s;
    return s;
  }

  /**
   * Adds the next string, given as one character per byte of its UTF-8 (`bytes`) or as a string (`text`), whose
   * UTF-8 it stores.
   */
  add(s: string, form: 'bytes' | 'text'): void {
    const n = this.length;
    if (n === this.starts.length) {
      const starts = new Uint32Array(n * 2);
      starts.set(this.starts);
      this.starts = starts;
      const lengths = new Uint32Array(n * 2);
      lengths.set(this.lengths);
      this.lengths = lengths;
    }
    const size = form === 'bytes' ? s.length : Buffer.byteLength(s);
    this.length = n + 1;
    if (size >= BLOCK) {
      this.lengths[n] = APART;
      this.apart.set(n, form === 'bytes' ? Buffer.from(s, 'latin1').toString('utf8') : s);
      return;
    }
    if (this.used + size > BLOCK) {
      if (this.blocks.length * BLOCK >= 0xffffffff - BLOCK)
        throw new XmlFault('its shared strings are larger than 4 GB');
      this.blocks.push(Buffer.allocUnsafeSlow(BLOCK));
      this.used = 0;
    }
    const block = this.blocks.length - 1;
    this.blocks[block]!.write(s, this.used, size, form === 'bytes' ? 'latin1' : 'utf8');
    this.starts[n] = block * BLOCK + this.used;
    this.lengths[n] = size;
    this.used += size;
  }

  /** Gives back the room the index arrays were grown by past the last string. */
  trim(): this {
    this.starts = this.starts.slice(0, this.length);
    this.lengths = this.lengths.slice(0, this.length);
    return this;
  }
}

/**
 * Each `<si>`'s text: its `<t>` runs joined, phonetic guides (`<rPh>`) left out. The part's XML comes a chunk of
 * bytes at a time and is scanned one character per byte, as the sheet is: the scanner holds a run of text cut by a
 * chunk's end until its tag closes, so an entity, an `_x000D_` escape or a character's UTF-8 bytes are never cut.
 * A run is stored as the bytes it is when it holds no entity or escape, and decoded otherwise; only the strings'
 * bytes are kept, never the part's text.
 */
export async function sharedStringsOf(chunks: AsyncIterable<Buffer>): Promise<SharedStrings> {
  const out = new SharedStrings();
  // The runs of the string being read, one character per byte of UTF-8 (entities already replaced).
  let runs: string[] | null = null;
  let inT = false;
  let phonetic = 0;
  const s = new XmlScanner({
    get wantsText() {
      return inT;
    },
    open(name) {
      if (name === 'si') runs = [];
      else if (name === 't' && runs && !phonetic) inT = true;
      else if (name === 'rPh') phonetic++;
    },
    close(name) {
      if (name === 't') inT = false;
      else if (name === 'rPh') phonetic--;
      else if (name === 'si' && runs) {
        const bytes = runs.length === 1 ? runs[0]! : runs.join('');
        runs = null;
        if (bytes.indexOf('_x') === -1) out.add(bytes, 'bytes');
        else out.add(officeText(Buffer.from(bytes, 'latin1').toString('utf8')), 'text');
      }
    },
    text(t, cdata) {
      if (!inT || !runs) return;
      if (cdata || t.indexOf('&') === -1) runs.push(t);
      else runs.push(Buffer.from(xmlText(Buffer.from(t, 'latin1').toString('utf8')), 'utf8').toString('latin1'));
    },
  });
  for await (const chunk of chunks) s.feed(chunk.toString('latin1'));
  s.end();
  return out.trim();
}
