import { describe, expect, it } from 'vitest';
import { MIN_HEAP_MB, growingPercentFor } from './heap.js';

const MB = 1024 * 1024;

describe('growingPercentFor', () => {
  it('lets a small heap reach MIN_HEAP_MB, and keeps the configured percent for one past it', () => {
    const p = growingPercentFor(30, 44 * MB);
    expect(p).toBeGreaterThan(30);
    expect(44 * (1 + p / 100)).toBeGreaterThanOrEqual(MIN_HEAP_MB);
    expect(growingPercentFor(30, (MIN_HEAP_MB / 2) * MB)).toBe(100);
    // A bulk import's live heap (60-80 MB): its 30% only, not 48 MB of room past it.
    expect(growingPercentFor(30, 76 * MB)).toBe(30);
    expect(growingPercentFor(30, 400 * MB)).toBe(30);
    expect(growingPercentFor(30, MIN_HEAP_MB * MB)).toBe(30);
  });
});
