import { describe, expect, it } from 'vitest';
import { bulkChunks } from './bulk-chunks.js';

describe('bulkChunks', () => {
  it('covers every row once, in order, with full chunks first and the rest in powers of two', () => {
    expect(bulkChunks(1000, 500)).toEqual([
      [0, 500],
      [500, 500],
    ]);
    expect(bulkChunks(990, 500).map(([, n]) => n)).toEqual([500, 256, 128, 64, 32, 8, 2]);
    expect(bulkChunks(0, 500)).toEqual([]);
    const sizes = new Set<number>();
    for (let total = 1; total <= 2000; total++) {
      const chunks = bulkChunks(total, 500);
      let next = 0;
      for (const [from, n] of chunks) {
        expect(from).toBe(next);
        next += n;
        sizes.add(n);
      }
      expect(next).toBe(total);
    }
    expect([...sizes].sort((a, b) => a - b)).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 500]);
  });
});
