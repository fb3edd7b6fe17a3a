import type { Container } from 'inversify';
import { tenants, reposOf } from './capabilities/index.js';
import { T, resolve, useCasesOf } from '@fundi/adapters';
import type { CreatedTenant } from '@fundi/application';

/**
 * First start of an empty database: create the tenant `demo` (plan pilot) and return its admin key, which the
 * caller prints once. Returns null when any tenant already exists.
 */
export async function bootstrapDemoTenant(c: Container): Promise<CreatedTenant | null> {
  const existing = await reposOf(c).tenants.list();
  if (existing.length > 0) return null;
  return useCasesOf(c, tenants).createTenant.execute({ slug: 'demo', name: 'Demo Training Provider', plan: 'pilot' });
}
