import { expect } from 'vitest';
import type { TestServer } from './test-server.js';

/** A list route under test: its path after the form's prefix, the tenant it is read in, and how items are named. */
export interface ListUnderTest {
  s: TestServer;
  key: string;
  slug: string;
  /** After the prefix, starting with `/`, without a query. */
  path: string;
  /** What tells the items apart (an id, a version number, a key). */
  name(item: Record<string, unknown>): unknown;
}

/** Reads a list in Form A: every page of `limit` items through `nextCursor`, checking each envelope on the way. */
async function walkFormA(l: ListUnderTest, limit: number, total: number): Promise<unknown[]> {
  const seen: unknown[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages <= total; pages++) {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const r = await l.s.call('GET', `/api/v1${l.path}?limit=${limit}${query}`, l.key);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['data', 'pagination']);
    const { hasMore, nextCursor } = r.body.pagination;
    expect(r.body.pagination).toEqual({ hasMore, nextCursor, total });
    expect(r.body.data.length).toBe(Math.min(limit, total - seen.length));
    seen.push(...r.body.data.map(l.name));
    expect(hasMore).toBe(seen.length < total);
    if (!hasMore) {
      expect(nextCursor).toBeNull();
      return seen;
    }
    expect(typeof nextCursor).toBe('string');
    cursor = nextCursor;
  }
  throw new Error(`${l.path}: more pages than items`);
}

/**
 * Checks that a list answers in each form's pagination envelope and pages: whole with `limit=100`, the default of 20,
 * two or more pages of `limit` (Form A through `nextCursor`, Form B by `offset` on both of its mounts), and a tampered
 * or foreign cursor (`foreignCursors`: issued for another list) refused as invalid input. Answers the names of every item, in order, as `limit=100` gave them.
 */
export async function expectPagedList(l: ListUnderTest, limit: number, foreignCursors: readonly string[] = []) {
  const whole = await l.s.call('GET', `/api/v1${l.path}?limit=100`, l.key);
  expect(whole.status, JSON.stringify(whole.body)).toBe(200);
  const all: unknown[] = whole.body.data.map(l.name);
  const total = all.length;
  expect(total, 'a list long enough for two pages').toBeGreaterThan(limit);
  expect(whole.body.pagination).toEqual({ hasMore: false, nextCursor: null, total });
  expect(new Set(all).size).toBe(total);

  const byDefault = await l.s.call('GET', `/api/v1${l.path}`, l.key);
  expect(byDefault.body.data.map(l.name)).toEqual(all.slice(0, 20));
  expect(byDefault.body.pagination.hasMore).toBe(total > 20);
  expect(await walkFormA(l, limit, total)).toEqual(all);

  for (const prefix of [`/api/v1/tenants/${l.slug}`, `/v1/tenants/${l.slug}`]) {
    const full = await l.s.call('GET', `${prefix}${l.path}?limit=100`, l.key);
    expect(full.status, JSON.stringify(full.body)).toBe(200);
    expect(full.body).toEqual({ data: whole.body.data, pagination: { total, limit: 100, offset: 0, hasMore: false } });
    const pages: unknown[] = [];
    for (let offset = 0; offset < total; offset += limit) {
      const r = await l.s.call('GET', `${prefix}${l.path}?limit=${limit}&offset=${offset}`, l.key);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.pagination).toEqual({ total, limit, offset, hasMore: offset + limit < total });
      pages.push(...r.body.data.map(l.name));
    }
    expect(pages).toEqual(all);
    const past = await l.s.call('GET', `${prefix}${l.path}?offset=${total}`, l.key);
    expect(past.body).toEqual({ data: [], pagination: { total, limit: 20, offset: total, hasMore: false } });
    const bad = await l.s.call('GET', `${prefix}${l.path}?limit=101`, l.key);
    expect(bad.status).toBe(400);
  }

  const first = await l.s.call('GET', `/api/v1${l.path}?limit=${limit}`, l.key);
  const cursor: string = first.body.pagination.nextCursor;
  const [payload, sig] = cursor.split('.');
  const forged = `${Buffer.from(String(all[0])).toString('base64url')}.${sig}`;
  const refused = [forged, `${payload}.AAAA${sig!.slice(4)}`, `${cursor}x`, 'garbage'];
  for (const bad of [...refused, ...foreignCursors]) {
    const r = await l.s.call('GET', `/api/v1${l.path}?limit=${limit}&cursor=${encodeURIComponent(bad)}`, l.key);
    expect(r.status, bad).toBe(422);
    expect(r.body.error.code).toBe('validation_error');
    expect(r.body.error.details.map((d: { field: string }) => d.field)).toEqual(['cursor']);
  }
  return all;
}
