import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parse as parseSync } from 'csv-parse/sync';
import { csvRecords } from './csv-records.js';
import { PlainLines } from './csv-fast.js';

/** The bytes as a stream of chunks of `size` bytes. */
const chunked = (b: Buffer, size: number) =>
  Readable.from(Array.from({ length: Math.ceil(b.length / size) }, (_, i) => b.subarray(i * size, (i + 1) * size)));

/** What csv-parse alone makes of `text`: its records, or its error's code, line and message. */
function byCsvParse(text: string, delimiter: string) {
  try {
    const records = parseSync(text, { bom: true, relax_column_count: true, skip_empty_lines: false, delimiter });
    return { records: records as string[][], error: null };
  } catch (e) {
    const err = e as { code?: string; lines?: number; message?: string };
    return { records: null, error: { code: err.code, lines: err.lines, message: err.message } };
  }
}

/** What the import's reader makes of it, in chunks of `size`: the records before a fault, and the fault. */
async function byReader(text: string, delimiter: ',' | ';' | '\t', size: number) {
  const records: string[][] = [];
  try {
    for await (const batch of csvRecords(chunked(Buffer.from(text), size), delimiter))
      for (const r of batch) {
        expect(r.row).toBe(records.length + 1);
        records.push(r.cells);
      }
    return { records, error: null };
  } catch (e) {
    const err = e as { code?: string; lines?: number; message?: string };
    return { records, error: { code: err.code, lines: err.lines, message: err.message } };
  }
}

async function expectSame(text: string, delimiter: ',' | ';' | '\t' = ',', sizes = [1, 3, 7, 64, 65_536]) {
  const want = byCsvParse(text, delimiter);
  for (const size of sizes) {
    const got = await byReader(text, delimiter, size);
    if (want.error) {
      expect(got.error, `${JSON.stringify(text)} in chunks of ${size}`).toEqual(want.error);
    } else {
      expect(got.error, `${JSON.stringify(text)} in chunks of ${size}`).toBeNull();
      expect(got.records, `${JSON.stringify(text)} in chunks of ${size}`).toEqual(want.records);
    }
  }
}

describe('the import reader against csv-parse', () => {
  it('reads plain files as csv-parse does: LF and CRLF, quotes, BOM, blank lines, a last line without a break', async () => {
    const cases = [
      '',
      '\n',
      '\r\n',
      'a,b\n',
      'a,b',
      'a,b\n\n',
      '\n\n\na,b\n,\n\nc',
      '\uFEFFa,b\r\n1,2\r\n',
      '\uFEFF"a",b\n',
      'a,"b, c",d\r\n"",x\r\n"say ""hi""",""""\r\n',
      'h\r\n"x",\r\n,"y"\r\n,\r\n',
      'é,"€, ü"\n\ud83d\ude00,z\n',
      'a;b,c;"d;e"\n',
      'a\tb\t"c\td"\n',
    ];
    for (const text of cases) {
      const delimiter = text.includes(';') ? ';' : text.includes('\t') ? '\t' : ',';
      await expectSame(text, delimiter);
      // Read here, not handed to csv-parse.
      const out: string[][] = [];
      expect(new PlainLines(delimiter).parse(text, out, true), JSON.stringify(text)).toBe(text.length);
      expect(out).toEqual(byCsvParse(text, delimiter).records);
    }
  });

  it('hands what is not plain to csv-parse: the same records after it, the same faults at the same lines', async () => {
    const cases = [
      'a,b\n"two\nlines",x\nc,d\n',
      'a,b\r\n1,2\r\n"two\r\nlines",x\r\nc,d\r\n',
      'a,b\r\n1,2\n3,4\r\n',
      'a,b\n1,2\r\n3,4\n',
      'a,b\r\n1\r2,3\r\n',
      'a\rb\rc\r',
      'a,b\n1,2\n3,x"y\n',
      'a,b\n1,2\n3,"x"y\n',
      'a,b\n1,2\n3,"x" \n',
      'a,b\n1,2\n3,"never closed\n4,5\n',
      'a,b\n1,2\n3,"never closed',
      'a,b\n1,2\n"x"\r',
      'a,b\r\n1,2\r\n3,4\r',
      'a,b\r\n1,2\r\n\n3,4\r\n',
      'a,b\r\n\r\n"q\nr",s\r\n',
      '"a\nb"\nc\n',
    ];
    for (const text of cases) await expectSame(text);
  });

  it('reads random texts of quotes, delimiters and line breaks as csv-parse does', async () => {
    const alphabet = ['a', 'b', ',', ',', '"', '"', '\n', '\r\n', '\r', 'é', ' '];
    let seed = 7;
    const next = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed >>> 8;
    };
    for (let n = 0; n < 400; n++) {
      const length = next() % 40;
      let text = '';
      for (let i = 0; i < length; i++) text += alphabet[next() % alphabet.length];
      await expectSame(text, ',', [1, 5, 65_536]);
    }
  }, 60_000);
});
