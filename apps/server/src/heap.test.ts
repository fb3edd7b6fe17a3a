import { describe, expect, it } from 'vitest';
import { MIN_HEAP_ROOM_MB, growingPercentFor } from './heap.js';

const MB = 1024 * 1024;

describe('growingPercentFor', () => {
  it('keeps the configured percent for a large heap, and at least MIN_HEAP_ROOM_MB of room for a small one', () => {
    expect(growingPercentFor(30, 400 * MB)).toBe(30);
    expect(growingPercentFor(30, MIN_HEAP_ROOM_MB * MB)).toBe(100);
    const p = growingPercentFor(30, 44 * MB);
    expect(p).toBeGreaterThan(30);
    expect((44 * p) / 100).toBeGreaterThanOrEqual(MIN_HEAP_ROOM_MB);
  });
});
