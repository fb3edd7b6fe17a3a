import { DomainError, type TenantSnapshot } from '@fundi/domain';
import type { TenantRepos } from '@fundi/domain';

export async function tenantBySlug(repos: Pick<TenantRepos, 'tenants'>, slug: string): Promise<TenantSnapshot> {
  const t = await repos.tenants.findBySlug(slug);
  if (!t) throw DomainError.notFound('tenant', slug);
  return t;
}
