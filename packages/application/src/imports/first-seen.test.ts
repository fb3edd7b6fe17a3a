import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FirstSeen } from './first-seen.js';

describe('FirstSeen', () => {
  it('answers the first row of a key seen before, and records new keys', () => {
    const s = new FirstSeen();
    expect(s.firstOr('9202204720083', 2)).toBeUndefined();
    expect(s.firstOr('thandi@example.org', 3)).toBeUndefined();
    expect(s.firstOr('9202204720083', 7)).toBe(2);
    expect(s.firstOr('9202204720083', 9)).toBe(2);
    expect(s.firstOr('', 10)).toBeUndefined();
    expect(s.firstOr('', 11)).toBe(10);
  });

  it('agrees with a Map for any keys, through collisions and growth from a tiny table', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string({ maxLength: 3 }), fc.string({ unit: 'binary' })), { maxLength: 400 }),
        (keys) => {
          const s = new FirstSeen(1);
          const m = new Map<string, number>();
          keys.forEach((k, i) => {
            const row = i + 2;
            const want = m.get(k);
            if (want === undefined) m.set(k, row);
            expect(s.firstOr(k, row)).toBe(want);
          });
        },
      ),
    );
  });

  it('holds 100,000 keys', () => {
    const s = new FirstSeen();
    // One expect over the whole run (100,000 expect calls take seconds on a loaded machine).
    const wrong: string[] = [];
    for (let i = 0; i < 100_000; i++) {
      const seen = s.firstOr(`learner${i}@example.co.za`, i + 2);
      if (seen !== undefined) wrong.push(`new key ${i} answered ${seen}`);
    }
    for (let i = 0; i < 100_000; i += 997) {
      const seen = s.firstOr(`learner${i}@example.co.za`, 200_000);
      if (seen !== i + 2) wrong.push(`key ${i} answered ${seen}, not ${i + 2}`);
    }
    expect(wrong).toEqual([]);
  });

  it('refuses row 0, which marks an empty slot', () => {
    expect(() => new FirstSeen().firstOr('x', 0)).toThrow(RangeError);
  });
});
