import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';
import { CsvFileError } from '@fundi/application';
import { describe, expect, it } from 'vitest';
import { CsvParseReader } from './csv-parse-reader.js';

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

  it('reads a line longer than a megabyte, its characters cut between chunks', async () => {
    const long = '\u00e9\u20ac'.repeat(300_000);
    const rows = await read(chunked(Buffer.from(`h\n"${long}"\nnext\n`), 4099));
    expect(rows.map((r) => r.row)).toEqual([1, 2, 3]);
    expect(rows[1]!.cells[0]).toBe(long);
  });

  it('reports the line of the first byte that is not UTF-8', async () => {
    const csv = Buffer.concat([Buffer.from('a,b\n1,2\n'), Buffer.from('Ren\u00e9,3\n', 'latin1')]);
    await expect(read(chunked(csv, 4))).rejects.toMatchObject({
      problem: { row: 3, field: 'file', error: expect.stringContaining('byte 0xE9 on line 3') },
    });
    await expect(read(Readable.from([Buffer.from('a\n\u00e9').subarray(0, 3)]))).rejects.toBeInstanceOf(CsvFileError);
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

  it('counts as a walk over every byte would, however the bytes are cut', async () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 50; round++) {
      const bytes = Buffer.from(Array.from({ length: 2000 }, () => [0x22, 0x0a, 0x61, 0x2c][random(4)]!));
      let quoted = false;
      let feeds = 0;
      for (const b of bytes) {
        if (b === 0x22) quoted = !quoted;
        else if (b === 0x0a && !quoted) feeds++;
      }
      const want = Math.max(0, feeds + (bytes.at(-1) === 0x0a ? 0 : 1) - 1);
      const counter = reader.rowLimit(1_000_000);
      await pipeline(chunked(bytes, 1 + random(300)), counter, new Writable({ write: (_c, _e, d) => d() }));
      expect(counter.dataRows(), `round ${round}`).toBe(want);
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
    const bad = Buffer.concat([file.subarray(0, 2 * 64 * 1024), Buffer.from('Ren\u00e9\n', 'latin1')]);
    const seen: number[] = [];
    const failed = await (async () => {
      for await (const batch of reader.records(chunked(bad, 64 * 1024))) seen.push(...batch.map((r) => r.row));
    })().catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(CsvFileError);
    // The two whole chunks before the bad one: every record they complete, in order.
    const complete =
      file
        .subarray(0, 2 * 64 * 1024)
        .toString('utf8')
        .split('\r\n').length - 1;
    expect(seen).toEqual(Array.from({ length: complete }, (_, i) => i + 1));
  });
});
