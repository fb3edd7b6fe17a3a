import { AccessPolicy } from '@fundi/domain';
import { describe, expect, it } from 'vitest';
import { learnerScopesOf } from './learner-scopes.js';

const access = new AccessPolicy({ 'books:read': ['viewer'], 'books:write': ['admin'], 'notes:read': ['viewer'] });

describe('a learner\'s scopes at the portal (docs/dashboard.md, "Learner portal")', () => {
  it("are every capability's offer, in the list's order, each once", () => {
    expect(learnerScopesOf([['books:read'], ['notes:read', 'books:read']], access)).toEqual([
      'books:read',
      'notes:read',
    ]);
    expect(learnerScopesOf(undefined, access)).toEqual([]);
  });

  it('refuse at start a scope no capability declares', () => {
    expect(() => learnerScopesOf([['books:read', 'games:play']], access)).toThrow(/games:play is declared by no/);
  });
});
