import type { Role, Scope } from '@fundi/domain';

/** Who is acting: an API key of a tenant, or the operator (CLI) / the system itself. */
export interface Actor {
  tenantId: string;
  /** API key id, or `cli` / `system`. */
  id: string;
  role: Role;
  scopes: readonly Scope[];
}

export function operator(tenantId: string): Actor {
  return { tenantId, id: 'cli', role: 'admin', scopes: [] };
}

/** Background and failure-driven changes are made by the service itself. */
export function systemActor(tenantId: string): Actor {
  return { tenantId, id: 'system', role: 'admin', scopes: [] };
}
