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
