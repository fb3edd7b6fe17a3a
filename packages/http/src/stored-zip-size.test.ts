import { storedZipSize } from '@fundi/application/evidence';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { storedZip } from './routes/stored-zip.js';

/** Writes a ZIP the way the bundle route does (stored, streamed entries) and measures it. */
async function zipLength(files: { name: string; data: Buffer }[]): Promise<number> {
  let length = 0;
  for await (const c of storedZip(files.map((f) => ({ name: f.name, open: async () => Readable.from([f.data]) }))))
    length += (c as Buffer).length;
  return length;
}

describe('storedZipSize', () => {
  it('is the exact length of the stored ZIP the bundle route writes', async () => {
    const cases = [
      [],
      [{ name: 'lrn_1/KM-01/evd_1-v1-a.pdf', data: Buffer.alloc(45, 1) }],
      [
        { name: 'lrn_1/KM-01/evd_1-v1-Sertifikaat — Thandi.pdf', data: Buffer.alloc(3000, 1) },
        { name: 'lrn_1/PM-01/evd_2-v2-ñandú ☃.png', data: Buffer.alloc(200_000, 2) },
        { name: 'lrn_2/WM-01/evd_3-v1-empty.txt', data: Buffer.alloc(0) },
      ],
    ];
    for (const files of cases) {
      expect(storedZipSize(files.map((f) => ({ name: f.name, size: f.data.length })))).toBe(await zipLength(files));
    }
  });
});
