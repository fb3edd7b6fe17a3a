import { Transform } from 'node:stream';
import { isAscii, isUtf8 } from 'node:buffer';
import { TextDecoder } from 'node:util';
import type { ImportEncoding } from '@fundi/domain/imports';

/** Files that are not text at all: passed on untouched, for the UTF-8 guard to name what they are. */
const NOT_TEXT = [Buffer.from('PK\u0003\u0004', 'latin1'), Buffer.from([0xd0, 0xcf, 0x11, 0xe0])];

/** A UTF-8 sequence cut off by the end of `b` at `at` (its lead byte and the continuation bytes that arrived). */
function cutOff(b: Buffer, at: number): boolean {
  const c = b[at]!;
  const n = c >= 0xc2 && c < 0xe0 ? 2 : c >= 0xe0 && c < 0xf0 ? 3 : c >= 0xf0 && c < 0xf5 ? 4 : 0;
  if (n === 0 || at + n <= b.length) return false;
  for (let i = at + 1; i < b.length; i++) if ((b[i]! & 0xc0) !== 0x80) return false;
  return true;
}

/**
 * The first offset in `b` from which it is not UTF-8 (b.length when it all is). Run only on the chunk where the
 * first byte above ASCII appears: once the encoding is decided, chunks pass without it.
 */
function utf8Until(b: Buffer): number {
  if (isUtf8(b)) return b.length;
  for (let i = 0; i < b.length; ) {
    const c = b[i]!;
    const n = c < 0x80 ? 1 : c >= 0xc2 && c < 0xe0 ? 2 : c >= 0xe0 && c < 0xf0 ? 3 : c >= 0xf0 && c < 0xf5 ? 4 : 0;
    if (n === 0 || i + n > b.length || !isUtf8(b.subarray(i, i + n))) return i;
    i += n;
  }
  return b.length;
}

/**
 * Turns the text of an uploaded CSV into UTF-8 (docs/api.md, "Imports"): a UTF-16 file with its BOM (LE or BE) is
 * decoded; a file is UTF-8 (with or without its BOM) while its bytes are, and Windows-1252 (Excel's "CSV" on
 * Windows) when its first byte above ASCII is not UTF-8, every byte before it being the same in both. A file that
 * turns out not to be UTF-8 after UTF-8 text passes on as it is, for the UTF-8 guard to report the byte.
 * `encoding` is what was found.
 */
export class TextTranscoder extends Transform {
  encoding: ImportEncoding = 'utf-8';
  private decoder: TextDecoder | null = null;
  private decided = false;
  /** Bytes held back until they can be judged (the first few, or a sequence cut by the chunk's end). */
  private held = Buffer.alloc(0);
  private started = false;

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: (e?: Error | null, b?: Buffer) => void) {
    const b = this.held.length ? Buffer.concat([this.held, chunk]) : chunk;
    this.held = Buffer.alloc(0);
    if (!this.started) {
      if (b.length < 4) {
        this.held = Buffer.from(b);
        return done();
      }
      this.start(b);
    }
    done(null, this.convert(b, false));
  }

  override _flush(done: (e?: Error | null, b?: Buffer) => void) {
    const b = this.held;
    this.held = Buffer.alloc(0);
    if (!this.started && b.length) this.start(b);
    const out = this.convert(b, true);
    done(null, out.length ? out : undefined);
  }

  private start(b: Buffer) {
    this.started = true;
    if (b[0] === 0xff && b[1] === 0xfe) this.use('utf-16le');
    else if (b[0] === 0xfe && b[1] === 0xff) this.use('utf-16be');
    else if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) {
      this.encoding = 'utf-8-bom';
      this.decided = true;
    } else if (NOT_TEXT.some((sig) => b.subarray(0, sig.length).equals(sig)) || b.subarray(0, 4096).includes(0))
      this.decided = true;
  }

  private use(encoding: 'utf-16le' | 'utf-16be' | 'windows-1252') {
    this.encoding = encoding;
    this.decoder = new TextDecoder(encoding);
    this.decided = true;
  }

  private convert(b: Buffer, end: boolean): Buffer {
    if (this.decoder) return Buffer.from(this.decoder.decode(b, { stream: !end }), 'utf8');
    // isAscii is native: a file of ASCII passes at the speed of memory until its first byte above ASCII.
    if (this.decided || isAscii(b)) return b;
    const firstHigh = b.findIndex((c) => c >= 0x80);
    const ok = utf8Until(b);
    if (ok === b.length) {
      this.decided = true;
      return b;
    }
    if (!end && ok === firstHigh && cutOff(b, ok)) {
      // Its first sequence above ASCII, cut by the chunk's end: judged with the next chunk.
      this.held = Buffer.from(b.subarray(ok));
      return b.subarray(0, ok);
    }
    if (ok > firstHigh) {
      // UTF-8 text, then a byte that is not: passed on for the guard to report.
      this.decided = true;
      return b;
    }
    this.use('windows-1252');
    return Buffer.concat([b.subarray(0, firstHigh), this.convert(b.subarray(firstHigh), end)]);
  }
}
