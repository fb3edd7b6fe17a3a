import { DomainError, type TenantSnapshot } from '@fundi/domain';
import type { Repositories } from '../shared/ports.js';

export async function tenantBySlug(repos: Repositories, slug: string): Promise<TenantSnapshot> {
  const t = await repos.tenants.findBySlug(slug);
  if (!t) throw DomainError.notFound('tenant', slug);
  return t;
}
