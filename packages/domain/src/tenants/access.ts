import { DomainError } from '../common/errors.js';

export const ROLES = ['admin', 'manager', 'assessor', 'moderator', 'facilitator', 'viewer', 'integration'] as const;
export type Role = (typeof ROLES)[number];

/** A scope the service checks, `<resource>:<action>` (docs/api.md, "Authentication, roles and scopes"). */
export type Scope = `${string}:${string}`;

/** Which roles get each scope: what a capability declares of its own scopes (docs/architecture.md, "Capabilities"). */
export type ScopeGrants = Readonly<Record<Scope, readonly Role[]>>;

export function parseRole(value: unknown, field = 'role'): Role {
  if (typeof value !== 'string' || !(ROLES as readonly string[]).includes(value)) {
    throw DomainError.invalid(field, `must be one of ${ROLES.join(', ')}`);
  }
  return value as Role;
}

/**
 * Every scope of the service and what each role may ever do, built once from the capabilities' grants at the
 * composition root (the domain lists no capability's scopes). A key's scopes are a subset of its role's.
 */
export class AccessPolicy {
  /** Every scope, in the order the grants were given. */
  readonly scopes: readonly Scope[];
  private readonly byRole: Record<Role, readonly Scope[]>;

  constructor(grants: ScopeGrants) {
    this.scopes = Object.keys(grants) as Scope[];
    for (const s of this.scopes) {
      if (!/^[a-z]+:[a-z]+$/.test(s)) throw new Error(`Malformed scope ${s}: expected <resource>:<action>`);
      for (const r of grants[s]!) parseRole(r, `grants of ${s}`);
    }
    const byRole = {} as Record<Role, readonly Scope[]>;
    for (const role of ROLES) byRole[role] = this.scopes.filter((s) => grants[s]!.includes(role));
    this.byRole = byRole;
  }

  /** The scopes `role` holds. */
  of(role: Role): readonly Scope[] {
    return this.byRole[role];
  }

  /**
   * Resolves requested scopes against the role: none requested = all of the role's; `learners:*` = every learners
   * action the role has. Any scope outside the role is invalid input.
   */
  resolve(role: Role, requested: readonly string[] | undefined, field = 'scopes'): Scope[] {
    const allowed = this.of(role);
    if (!requested || requested.length === 0) return [...allowed];
    const out = new Set<Scope>();
    for (const r of requested) {
      const matches = r.endsWith(':*')
        ? allowed.filter((s) => s.startsWith(r.slice(0, -1)))
        : allowed.filter((s) => s === r);
      if (matches.length === 0) {
        const known = r.endsWith(':*')
          ? this.scopes.some((s) => s.startsWith(r.slice(0, -1)))
          : (this.scopes as readonly string[]).includes(r);
        throw DomainError.invalid(field, known ? `scope ${r} is not within role ${role}` : `unknown scope ${r}`);
      }
      for (const s of matches) out.add(s);
    }
    return [...out];
  }
}
