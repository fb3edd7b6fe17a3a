import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';
import { CsvFileError } from '@fundi/application/imports';
import { describe, expect, it } from 'vitest';
import { IMPORT_MAX_CELLS, IMPORT_MAX_ROW_BYTES } from '@fundi/domain/imports';
import { parse as parseSync } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { CsvParseReader } from './csv-parse-reader.js';

/** `text` in Windows-1252 (the characters used here only). */
const WIN1252: Record<string, number> = { '\u201c': 0x93, '\u201d': 0x94, '\u2019': 0x92 };
const win1252 = (text: string) => Buffer.from([...text].map((c) => WIN1252[c] ?? c.charCodeAt(0)));

/** The bytes as a stream of chunks of `size` bytes (cutting multi-byte characters in two). */
const chunked = (b: Buffer, size: number) =>
  Readable.from(Array.from({ length: Math.ceil(b.length / size) }, (_, i) => b.subarray(i * size, (i + 1) * size)));

async function readWith(reader: CsvParseReader, source: Readable) {
  const out: { row: number; cells: string[] }[] = [];
  for await (const batch of reader.records(source)) out.push(...batch);
  return out;
}

const reader = new CsvParseReader();
const read = (source: Readable) => readWith(reader, source);

describe('CsvParseReader', () => {
  it('numbers rows as a spreadsheet does: header 1, blank rows count, a quoted line break stays in its row', async () => {
    const csv = '\uFEFFa,b\r\n"x,1","two\r\nlines"\r\n\r\nz,\u00e9\u00e8\u20ac\r\n';
    expect(await read(chunked(Buffer.from(csv), 3))).toEqual([
      { row: 1, cells: ['a', 'b'] },
      { row: 2, cells: ['x,1', 'two\r\nlines'] },
      { row: 3, cells: [''] },
      { row: 4, cells: ['z', '\u00e9\u00e8\u20ac'] },
    ]);
  });

  it('accepts multi-byte characters cut between chunks at every position', async () => {
    const csv = Buffer.from('name\n\u00e9\u20ac\ud83d\ude00\u00e9\n');
    for (let size = 1; size <= 6; size++)
      expect((await read(chunked(csv, size)))[1]!.cells, `chunks of ${size}`).toEqual([
        '\u00e9\u20ac\ud83d\ude00\u00e9',
      ]);
  });

  it('reads a row up to the byte limit, its characters cut between chunks', async () => {
    const long = '\u00e9\u20ac'.repeat(Math.floor((IMPORT_MAX_ROW_BYTES - 4) / 5));
    const rows = await read(chunked(Buffer.from(`h\n"${long}"\nnext\n`), 4099));
    expect(rows.map((r) => r.row)).toEqual([1, 2, 3]);
    expect(rows[1]!.cells[0]).toBe(long);
  });

  it('stops at the first row over the cell or byte limit, naming its line, after the rows before it', async () => {
    const lines = ['h,i', '1,2', '"two\nlines",3'];
    const cases = [
      [`${','.repeat(IMPORT_MAX_CELLS)}\n`, 5, `more than ${IMPORT_MAX_CELLS} cells`],
      [`${'x'.repeat(IMPORT_MAX_ROW_BYTES)}\n`, 5, `longer than ${IMPORT_MAX_ROW_BYTES} bytes`],
      [`"${'x\n'.repeat(IMPORT_MAX_ROW_BYTES)}"\n`, 5, `longer than ${IMPORT_MAX_ROW_BYTES} bytes`],
      [`"never closed${'y'.repeat(IMPORT_MAX_ROW_BYTES + 10)}`, 5, `longer than ${IMPORT_MAX_ROW_BYTES} bytes`],
    ] as const;
    for (const [bad, line, what] of cases)
      for (const size of [13, 4096, 65_536]) {
        const seen: number[] = [];
        const failed = await (async () => {
          for await (const batch of reader.records(chunked(Buffer.from(`${lines.join('\n')}\n${bad}ok\n`), size)))
            seen.push(...batch.map((r) => r.row));
        })().catch((e: unknown) => e);
        expect(failed, `${what} in chunks of ${size}`).toMatchObject({
          problem: { row: line, field: 'file', error: expect.stringContaining(`line ${line}`) },
        });
        expect((failed as CsvFileError).problem.error).toContain(what);
        expect(seen).toEqual([1, 2, 3]);
      }
  });

  it('holds one row at most while a 45 MB line of commas goes by: it stops at the limit, in milliseconds', async () => {
    const line = Buffer.alloc(45 * 1024 * 1024, 0x2c);
    const started = performance.now();
    await expect(read(chunked(line, 64 * 1024))).rejects.toMatchObject({
      problem: { row: 1, error: expect.stringContaining(`more than ${IMPORT_MAX_CELLS} cells`) },
    });
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('reports the line of a byte that is not UTF-8 after UTF-8 text', async () => {
    const csv = Buffer.concat([Buffer.from('a,b\n1,\u00e9\n'), Buffer.from('Ren\u00e9,3\n', 'latin1')]);
    await expect(read(chunked(csv, 4))).rejects.toMatchObject({
      problem: { row: 3, field: 'file', error: expect.stringContaining('byte 0xE9 on line 3') },
    });
  });

  it('reads Windows-1252 and UTF-16 with its BOM as the same rows as UTF-8, at any chunk size', async () => {
    const text = 'first;last\r\nZo\u00eb;M\u00fcller\r\nRen\u00e9;\u201cO\u2019Brien\u201d\r\n';
    const want = [
      { row: 1, cells: ['first', 'last'] },
      { row: 2, cells: ['Zo\u00eb', 'M\u00fcller'] },
      { row: 3, cells: ['Ren\u00e9', '\u201cO\u2019Brien\u201d'] },
    ];
    const be = Buffer.from(`\ufeff${text}`, 'utf16le').swap16();
    const files: [string, Buffer][] = [
      ['utf-8', Buffer.from(text)],
      ['utf-8-bom', Buffer.from(`\ufeff${text}`)],
      ['windows-1252', win1252(text)],
      ['utf-16le', Buffer.from(`\ufeff${text}`, 'utf16le')],
      ['utf-16be', be],
    ];
    for (const [encoding, bytes] of files)
      for (const size of [1, 3, 7, 64 * 1024]) {
        let found: unknown = null;
        const rows: unknown[] = [];
        for await (const batch of reader.records(chunked(bytes, size), (f) => void (found = f))) rows.push(...batch);
        expect(rows, `${encoding} in chunks of ${size}`).toEqual(want);
        expect(found, `${encoding} in chunks of ${size}`).toEqual({ file: 'csv', encoding, delimiter: ';' });
      }
  });

  it('finds the delimiter from the header row, outside quotes', async () => {
    const found = async (csv: string) => {
      let f: unknown = null;
      for await (const _ of reader.records(Readable.from([Buffer.from(csv)]), (x) => void (f = x))) void _;
      return f;
    };
    expect(await found('a,b;c,d\n1,2,3\n')).toMatchObject({ delimiter: ',' });
    expect(await found('"a,b,c";d;e\n1;2;3\n')).toMatchObject({ delimiter: ';' });
    expect(await found('a\tb\tc\n1\t2\t3\n')).toMatchObject({ delimiter: '\t' });
    expect(await found('name\nx\n')).toMatchObject({ delimiter: ',' });
    expect(await read(Readable.from([Buffer.from('a\tb\n1\t"x\ty"\n')]))).toEqual([
      { row: 1, cells: ['a', 'b'] },
      { row: 2, cells: ['1', 'x\ty'] },
    ]);
  });

  it('refuses workbooks and binary data, and reports a quote that never closes', async () => {
    await expect(read(Readable.from([Buffer.from('PK\u0003\u0004rest', 'latin1')]))).rejects.toMatchObject({
      problem: { row: 1, field: 'file', error: expect.stringContaining('Excel') },
    });
    await expect(read(Readable.from([Buffer.from([0x61, 0x00, 0x62])]))).rejects.toBeInstanceOf(CsvFileError);
    await expect(read(Readable.from([Buffer.from('a,b\n1,"open\n2,3\n')]))).rejects.toMatchObject({
      problem: { field: 'file', error: expect.stringContaining('cannot be read as CSV') },
    });
  });

  it('counts data rows as they pass and fails past the limit', async () => {
    const ok = reader.rowLimit(3);
    const sink = new Writable({ write: (_c, _e, done) => done() });
    await pipeline(Readable.from([Buffer.from('h\n1\n"2\n2"\n3\n')]), ok, sink);
    expect(ok.dataRows()).toBe(3);
    const over = reader.rowLimit(3);
    await expect(
      pipeline(
        Readable.from([Buffer.from('h\n1\n2\n'), Buffer.from('3\n4\n')]),
        over,
        new Writable({ write: (_c, _e, d) => d() }),
      ),
    ).rejects.toMatchObject({ code: 'too_many_rows' });
  });

  it('counts the records csv-parse reads, however the bytes are cut', async () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const cell = () => Array.from({ length: random(6) }, () => ['"', '\n', 'a', ',', '\r\n', 'é'][random(6)]!).join('');
    for (let round = 0; round < 50; round++) {
      const rows = Array.from({ length: 1 + random(40) }, () => Array.from({ length: 1 + random(5) }, cell));
      // Cells with a line break quoted whatever the row delimiter (csv-stringify quotes only the one it writes).
      const text = stringify(rows, { record_delimiter: random(2) ? '\n' : '\r\n', quoted_match: /[\r\n]/ });
      // Some files end without a line feed.
      const bytes = Buffer.from(random(3) ? text : `${text}last`);
      const parsed = parseSync(bytes, { relax_column_count: true, skip_empty_lines: false });
      const counter = reader.rowLimit(1_000_000);
      await pipeline(chunked(bytes, 1 + random(300)), counter, new Writable({ write: (_c, _e, d) => d() }));
      expect(counter.dataRows(), `round ${round}`).toBe(Math.max(0, parsed.length - 1));
    }
  });

  it('counts cells as csv-parse does: a row of exactly the limit passes, one more cell stops at its line', async () => {
    let seed = 11;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const cell = () => Array.from({ length: random(4) }, () => ['"', '\n', 'a', ',', 'é'][random(5)]!).join('');
    const sink = () => new Writable({ write: (_c, _e, d) => d() });
    for (let round = 0; round < 30; round++) {
      const before = Array.from({ length: random(20) }, () => Array.from({ length: 1 + random(8) }, cell));
      const wide = (cells: number) => Array.from({ length: cells }, cell);
      const text = (extra: number) =>
        stringify([...before, wide(IMPORT_MAX_CELLS + extra), ['after']], { quoted_match: /[\r\n]/ });
      const size = 1 + random(200);
      const fits = reader.rowLimit(1_000_000);
      await pipeline(chunked(Buffer.from(text(0)), size), fits, sink());
      const line = stringify(before, { quoted_match: /[\r\n]/ }).split('\n').length;
      expect(parseSync(text(1), { relax_column_count: true }).at(-2)).toHaveLength(IMPORT_MAX_CELLS + 1);
      await expect(
        pipeline(chunked(Buffer.from(text(1)), size), reader.rowLimit(1_000_000), sink()),
        `round ${round}`,
      ).rejects.toMatchObject({
        code: 'too_many_cells',
        details: [{ message: expect.stringContaining(`the row on line ${line} `) }],
      });
    }
  });

  it('refuses an upload at the first row over a limit, naming its line, before the rest is read', async () => {
    for (const [bytes, code, line] of [
      [Buffer.from(`a,b\n1,2\n${','.repeat(IMPORT_MAX_CELLS)}\n`), 'too_many_cells', 3],
      [Buffer.from(`a,b\n"1\n2",3\n"${'x'.repeat(IMPORT_MAX_ROW_BYTES)}`), 'row_too_long', 4],
      [Buffer.alloc(45 * 1024 * 1024, 0x2c), 'too_many_cells', 1],
    ] as const) {
      const counter = reader.rowLimit(1_000_000);
      let passed = 0;
      const sink = new Writable({ write: (c: Buffer, _e, d) => d(void (passed += c.length)) });
      await expect(pipeline(chunked(bytes, 64 * 1024), counter, sink)).rejects.toMatchObject({
        kind: 'invalid',
        code,
        details: [{ field: 'file', message: expect.stringContaining(`line ${line}`) }],
      });
      expect(passed).toBeLessThan(2 * 64 * 1024);
    }
  });
});

describe('CsvParseReader over a large file', () => {
  const rows = 20_000;
  const file = Buffer.from(
    `id,name\r\n${Array.from({ length: rows }, (_, i) => `${i},"Name, ${i}"\r\n`).join('')}`,
    'utf8',
  );

  it('hands every record on in order to a reader slower than the parser', async () => {
    let next = 1;
    for await (const batch of reader.records(chunked(file, 64 * 1024))) {
      for (const r of batch) {
        expect(r.row).toBe(next);
        if (next > 1) expect(r.cells).toEqual([String(next - 2), `Name, ${next - 2}`]);
        next++;
      }
      await new Promise((ok) => setImmediate(ok));
    }
    expect(next - 1).toBe(rows + 1);
  });

  it('hands on the records before a byte that is not UTF-8, then fails', async () => {
    // A file of UTF-8 text (its é) with a Latin-1 é far into it.
    const head = Buffer.from(
      `${file
        .subarray(0, 2 * 64 * 1024)
        .toString('utf8')
        .replace('Name, 1"', 'Nam\u00e9, 1"')}`,
    );
    const bad = Buffer.concat([head, Buffer.from('Ren\u00e9\n', 'latin1')]);
    const seen: number[] = [];
    const failed = await (async () => {
      for await (const batch of reader.records(chunked(bad, 64 * 1024))) seen.push(...batch.map((r) => r.row));
    })().catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(CsvFileError);
    // The two whole chunks before the bad one: every record they complete, in order.
    const complete = head.toString('utf8').split('\r\n').length - 1;
    expect(seen).toEqual(Array.from({ length: complete }, (_, i) => i + 1));
  });
});
