import type { AccessPolicy, Scope } from '@fundi/domain';

declare module '../common/hooks.js' {
  interface Hooks {
    /**
     * The scopes a signed-in learner holds at the portal over the capability's records, for its pages and sections
     * there (docs/dashboard.md, "Learner portal"). Every portal page passes the session's learner id itself, so
     * these never reach another learner's records.
     */
    learnerScopes: readonly Scope[];
  }
}

/**
 * The learner's scopes at the portal: every capability's offer, in the list's order, each once. A scope no
 * capability declares fails at start.
 */
export function learnerScopesOf(offers: readonly (readonly Scope[])[] | undefined, access: AccessPolicy): Scope[] {
  const scopes = [...new Set((offers ?? []).flat())];
  for (const s of scopes)
    if (!access.scopes.includes(s)) throw new Error(`A learner's scope ${s} is declared by no capability`);
  return scopes;
}
