import type { TenantSnapshot } from '@fundi/domain';
import { aTenant } from '@fundi/domain/testing';
import type { CoreRepositories } from '../testing/test-databases.js';

/** Shared fixtures of the learner repository contract suites (learner-*.contract.test.ts). */
export const at = (minute: number) => new Date(Date.UTC(2026, 0, 10, 8, minute)).toISOString();

/** A new tenant, stored: a suite's own tenant and the other one, or a fresh one for a test that lists a whole tenant. */
export async function aStoredTenant(repos: CoreRepositories): Promise<TenantSnapshot> {
  const x = aTenant();
  await repos.tenants.insert(x);
  return x;
}
