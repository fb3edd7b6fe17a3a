import { DomainError } from '@fundi/domain';
import { describe, expect, it } from 'vitest';
import { checkRanges } from './ranges.js';

const caught = (f: () => void): DomainError => {
  try {
    f();
  } catch (e) {
    if (e instanceof DomainError) return e;
    throw e;
  }
  throw new Error('nothing thrown');
};

type Filter = { createdFrom?: string; createdTo?: string; updatedFrom?: string; updatedTo?: string };

describe('checkRanges', () => {
  const pairs = [
    ['createdFrom', 'createdTo'],
    ['updatedFrom', 'updatedTo'],
  ] as const;
  const check = (f: Filter) => checkRanges(f, pairs);

  it('passes ranges in order, equal ends and open ends', () => {
    expect(() =>
      check({ createdFrom: '2026-01-01', createdTo: '2026-01-02', updatedFrom: '2026-02-01' }),
    ).not.toThrow();
    expect(() => check({ createdFrom: '2026-01-01', createdTo: '2026-01-01' })).not.toThrow();
    expect(() => check({})).not.toThrow();
  });

  it('names the end of one reversed range as a field error', () => {
    const e = caught(() => check({ updatedFrom: '2026-03-01', updatedTo: '2026-02-01' }));
    expect(e.kind).toBe('invalid');
    expect(e.code).toBe('invalid_field');
    expect(e.details).toEqual([{ field: 'updatedTo', message: 'must not be before updatedFrom' }]);
  });

  it('reports every reversed range in one error', () => {
    const e = caught(() =>
      check({ createdFrom: '2026-03-01', createdTo: '2026-02-01', updatedFrom: '2026-03-01', updatedTo: '2026-02-01' }),
    );
    expect(e.code).toBe('invalid_request');
    expect(e.details.map((d) => d.field)).toEqual(['createdTo', 'updatedTo']);
  });
});
