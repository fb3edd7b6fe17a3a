import { describe, expect, it } from 'vitest';
import { DomainError } from './errors.js';
import { pageInOrder, pageOf } from './paging.js';

const versions = [1, 2, 3, 4, 5, 10, 11].map((version) => ({ version }));
const key = (v: { version: number }) => String(v.version);

describe('pageInOrder: a list in its own order, keyed by a field other than id', () => {
  it('keeps the given order (10 after 5, unlike a sort of the keys as text) and pages by key', () => {
    const first = pageInOrder(versions, { kind: 'cursor', after: null, limit: 5 }, key);
    expect(first).toEqual({ items: versions.slice(0, 5), total: 7, hasMore: true });
    const second = pageInOrder(versions, { kind: 'cursor', after: '5', limit: 5 }, key);
    expect(second).toEqual({ items: versions.slice(5), total: 7, hasMore: false });
  });

  it('pages by offset like pageOf, past the end too', () => {
    expect(pageInOrder(versions, { kind: 'offset', offset: 6, limit: 1 }, key)).toEqual({
      items: [{ version: 11 }],
      total: 7,
      hasMore: false,
    });
    expect(pageInOrder(versions, { kind: 'offset', offset: 9, limit: 20 }, key)).toEqual({
      items: [],
      total: 7,
      hasMore: false,
    });
  });

  it('refuses a key no longer in the list as an invalid cursor', () => {
    expect(() => pageInOrder(versions, { kind: 'cursor', after: '6', limit: 5 }, key)).toThrow(DomainError);
  });

  it('answers what pageOf does for a list already in id order', () => {
    const rows = ['a', 'b', 'c'].map((id) => ({ id }));
    for (const page of [
      { kind: 'cursor', after: 'a', limit: 1 },
      { kind: 'offset', offset: 1, limit: 5 },
    ] as const)
      expect(pageInOrder(rows, page, (r) => r.id)).toEqual(pageOf(rows, page));
  });
});
