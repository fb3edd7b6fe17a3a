import { declaredBy } from '@fundi/adapters';
import { describe, expect, it } from 'vitest';
import { apiRoutes, capabilitiesOf, containerFor } from '../compose.js';

describe('route scopes', () => {
  it('every route needs a scope some capability declares (routesOf refuses any other)', () => {
    const c = containerFor(
      { database: { kind: 'sqlite', filename: ':memory:' }, masterKey: Buffer.alloc(32, 1), logLevel: 'silent' },
      { storage: { kind: 'memory' } },
    );
    const scopes: readonly string[] = declaredBy(capabilitiesOf(c)).access.scopes;
    const needed = new Set(apiRoutes(c).flatMap((r) => (r.scope && r.scope !== 'any' ? [r.scope] : [])));
    expect(needed.size).toBeGreaterThan(20);
    for (const s of needed) expect(scopes, s).toContain(s);
  });
});
