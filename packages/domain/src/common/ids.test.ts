import { describe, expect, it } from 'vitest';
import { looksLikeId, newId } from './ids.js';

describe('newId', () => {
  it('is prefixed, URL-safe and 26 characters after the prefix', () => {
    const id = newId('lrn');
    expect(id).toMatch(/^lrn_[0-9a-z]{26}$/);
    expect(looksLikeId(id, 'lrn')).toBe(true);
    expect(looksLikeId(id, 'ten')).toBe(false);
  });

  it('ids of one prefix made at one time, interleaved with other prefixes, are strictly increasing', () => {
    const t = Date.UTC(2026, 5, 2);
    const ids = Array.from({ length: 300 }, () => {
      newId('evt');
      newId('aud', Date.now());
      return newId('key', t);
    });
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('newId randomness', () => {
  it('gives every id at least 64 fresh random bits, also within one millisecond', () => {
    const t = Date.UTC(2026, 5, 3);
    const ids = Array.from({ length: 500 }, () => newId('lrn', t));
    const randomParts = ids.map((id) => id.slice(-13));
    expect(new Set(randomParts).size).toBe(ids.length);
    // Neighbours share the time part but their random parts are unrelated (not the previous plus one).
    let closeNeighbours = 0;
    for (let i = 1; i < ids.length; i++) {
      const a = BigInt(`0x${Buffer.from(randomParts[i - 1]!).toString('hex')}`);
      const b = BigInt(`0x${Buffer.from(randomParts[i]!).toString('hex')}`);
      if (b - a === 1n || a - b === 1n) closeNeighbours++;
    }
    expect(closeNeighbours).toBe(0);
    expect([...ids].sort()).toEqual(ids);
  });
});
