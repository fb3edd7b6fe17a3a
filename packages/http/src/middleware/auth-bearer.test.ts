import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bearer } from './auth.js';

/** The header's token as the pattern alone reads it. */
const byPattern = (h: string) => /^Bearer\s+(\S+)\s*$/i.exec(h)?.[1] ?? null;

describe('bearer', () => {
  it('reads every header as the pattern does, the usual spelling included', () => {
    const part = fc.string({ unit: fc.constantFrom('a', 'Z', '0', '_', '.', ' ', '\t', '\u00a0', '\u2003', '\n') });
    const header = fc.oneof(
      part.map((t) => `Bearer ${t}`),
      fc.tuple(fc.constantFrom('Bearer', 'bearer', 'BEARER', 'Basic', 'Bearer:'), part).map(([s, t]) => `${s}${t}`),
      part,
    );
    fc.assert(
      fc.property(header, (h) => bearer(h) === byPattern(h)),
      { numRuns: 5000 },
    );
    expect(bearer('Bearer fk_live_abc')).toBe('fk_live_abc');
    expect(bearer('Bearer ')).toBeNull();
    expect(bearer('Bearer a b')).toBeNull();
    expect(bearer(undefined)).toBeNull();
  });
});
