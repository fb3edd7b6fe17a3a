import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import yauzl from 'yauzl';
import { describe, expect, it } from 'vitest';
import { storedZip } from './stored-zip.js';

async function bytesOf(s: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** Every entry as yauzl reads it back: name, bytes, and the CRC-32 the central directory records. */
function readBack(zip: Buffer): Promise<{ name: string; data: Buffer; crc: number }[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true, strictFileNames: true }, (err, z) => {
      if (err || !z) return reject(err);
      const out: { name: string; data: Buffer; crc: number }[] = [];
      z.on('entry', (entry: yauzl.Entry) => {
        z.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          bytesOf(stream).then((data) => {
            out.push({ name: entry.fileName, data, crc: entry.crc32 });
            z.readEntry();
          }, reject);
        });
      });
      z.on('end', () => resolve(out));
      z.on('error', reject);
      z.readEntry();
    });
  });
}

/** A source that hands its bytes over in pieces of `piece` bytes, and says whether it was destroyed. */
function source(data: Buffer, piece = 7000) {
  const state = { destroyed: false };
  let at = 0;
  const s = new Readable({
    read() {
      if (at >= data.length) return void this.push(null);
      this.push(data.subarray(at, at + piece));
      at += piece;
    },
    destroy(e, done) {
      state.destroyed = true;
      done(e);
    },
  });
  return { s, state };
}

describe('storedZip', () => {
  it('writes files a ZIP reader takes back byte for byte, CRCs included, in order', async () => {
    const files = [
      { name: 'lrn_1/KM-01/evd_1-v1-a.pdf', data: Buffer.from('%PDF-1.7 small') },
      { name: 'lrn_1/PM-01/evd_2-v2-ñandú ☃.png', data: Buffer.alloc(300_001, 0x5a) },
      { name: 'lrn_2/WM-01/evd_3-v1-empty.txt', data: Buffer.alloc(0) },
      {
        name: 'lrn_2/WM-01/evd_4-v1-random.bin',
        data: Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 31) % 251)),
      },
    ];
    const zip = await bytesOf(storedZip(files.map((f) => ({ name: f.name, open: async () => source(f.data).s }))));
    const back = await readBack(zip);
    expect(back.map((e) => e.name)).toEqual(files.map((f) => f.name));
    back.forEach((e, i) => {
      expect(e.data.equals(files[i]!.data)).toBe(true);
      expect(e.crc).toBe(crc32(files[i]!.data));
    });
  });

  it('an empty list is an empty ZIP', async () => {
    const zip = await bytesOf(storedZip([]));
    expect(zip.length).toBe(22);
    expect(await readBack(zip)).toEqual([]);
  });

  it('a file that fails fails the stream, and the file opened next is closed', async () => {
    const next = source(Buffer.alloc(10, 1));
    const broken = new Readable({
      read() {
        this.destroy(new Error('chunk 0 was altered'));
      },
    });
    const zip = storedZip([
      { name: 'a', open: async () => broken },
      { name: 'b', open: async () => next.s },
    ]);
    await expect(bytesOf(zip)).rejects.toThrow('chunk 0 was altered');
    await expect.poll(() => next.state.destroyed, { timeout: 5000 }).toBe(true);
  });

  it('a reader that stops early closes the file being written', async () => {
    const big = source(Buffer.alloc(2_000_000, 3), 65_536);
    const zip = storedZip([{ name: 'big', open: async () => big.s }]);
    for await (const _ of zip) break;
    await expect.poll(() => big.state.destroyed, { timeout: 5000 }).toBe(true);
  });
});
