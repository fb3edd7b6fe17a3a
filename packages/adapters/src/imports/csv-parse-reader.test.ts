import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';
import { CsvFileError } from '@fundi/application';
import { describe, expect, it } from 'vitest';
import { CsvParseReader } from './csv-parse-reader.js';

const reader = new CsvParseReader();

/** The bytes as a stream of chunks of `size` bytes (cutting multi-byte characters in two). */
const chunked = (b: Buffer, size: number) =>
  Readable.from(Array.from({ length: Math.ceil(b.length / size) }, (_, i) => b.subarray(i * size, (i + 1) * size)));

async function read(source: Readable) {
  const out: { row: number; cells: string[] }[] = [];
  for await (const batch of reader.records(source)) out.push(...batch);
  return out;
}

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
});
