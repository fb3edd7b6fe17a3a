import { DomainError } from '../common/errors.js';

export const ROLES = ['admin', 'manager', 'assessor', 'moderator', 'facilitator', 'viewer', 'integration'] as const;
export type Role = (typeof ROLES)[number];

/** Every scope the service checks, `<resource>:<action>` (docs/api.md, "Authentication, roles and scopes"). */
export const SCOPES = [
  'learners:read',
  'learners:write',
  'learners:delete',
  'programmes:read',
  'programmes:write',
  'programmes:delete',
  'enrolments:read',
  'enrolments:write',
  'assessments:read',
  'assessments:write',
  'assessments:moderate',
  'evidence:read',
  'evidence:write',
  'evidence:review',
  'evidence:delete',
  'exports:read',
  'exports:write',
  'imports:read',
  'imports:write',
  'notifications:read',
  'notifications:write',
  'notifications:delete',
  'users:read',
  'users:write',
  'webhooks:read',
  'webhooks:write',
  'webhooks:delete',
  'hr:read',
  'hr:write',
  'usage:read',
  'audit:read',
  'logbooks:read',
  'logbooks:write',
] as const;
export type Scope = (typeof SCOPES)[number];

const reads = SCOPES.filter((s) => s.endsWith(':read'));
const except = (...drop: string[]) => SCOPES.filter((s) => !drop.includes(s));
const deletes = SCOPES.filter((s) => s.endsWith(':delete'));

/** What each role may ever do; a key's scopes are a subset of its role's. */
export const ROLE_SCOPES: Record<Role, readonly Scope[]> = {
  admin: SCOPES,
  manager: except('webhooks:write', 'webhooks:delete', 'hr:write', 'assessments:moderate', 'users:write'),
  assessor: [
    ...reads.filter((s) => !['webhooks:read', 'hr:read', 'audit:read', 'usage:read'].includes(s)),
    'assessments:write',
    'evidence:write',
    'evidence:review',
    'logbooks:write',
  ],
  moderator: [
    'learners:read',
    'programmes:read',
    'enrolments:read',
    'assessments:read',
    'assessments:moderate',
    'evidence:read',
  ],
  facilitator: [
    'learners:read',
    'learners:write',
    'programmes:read',
    'enrolments:read',
    'enrolments:write',
    'assessments:read',
    'evidence:read',
    'evidence:write',
    'notifications:read',
    'notifications:write',
    'logbooks:read',
    'logbooks:write',
  ],
  viewer: reads.filter((s) => s !== 'audit:read'),
  // Integrations sync records; they never delete, review, moderate or read the audit log (docs/api.md).
  integration: except(...deletes, 'evidence:review', 'assessments:moderate', 'audit:read', 'users:write'),
};

export function parseRole(value: unknown, field = 'role'): Role {
  if (typeof value !== 'string' || !(ROLES as readonly string[]).includes(value)) {
    throw DomainError.invalid(field, `must be one of ${ROLES.join(', ')}`);
  }
  return value as Role;
}

/**
 * Resolves requested scopes against the role: none requested = all of the role's; `learners:*` = every learners
 * action the role has. Any scope outside the role is invalid input.
 */
export function resolveScopes(role: Role, requested: readonly string[] | undefined, field = 'scopes'): Scope[] {
  const allowed = ROLE_SCOPES[role];
  if (!requested || requested.length === 0) return [...allowed];
  const out = new Set<Scope>();
  for (const r of requested) {
    const matches = r.endsWith(':*')
      ? allowed.filter((s) => s.startsWith(r.slice(0, -1)))
      : allowed.filter((s) => s === r);
    if (matches.length === 0) {
      const known = r.endsWith(':*')
        ? SCOPES.some((s) => s.startsWith(r.slice(0, -1)))
        : (SCOPES as readonly string[]).includes(r);
      throw DomainError.invalid(field, known ? `scope ${r} is not within role ${role}` : `unknown scope ${r}`);
    }
    for (const s of matches) out.add(s);
  }
  return [...out];
}
