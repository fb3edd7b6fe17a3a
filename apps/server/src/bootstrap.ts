import type { Container } from 'inversify';
import { T, resolve } from '@fundi/adapters';
import type { CreatedTenant } from '@fundi/application';

/**
 * First start of an empty database: create the tenant `demo` (plan pilot) and return its admin key, which the
 * caller prints once. Returns null when any tenant already exists.
 */
export async function bootstrapDemoTenant(c: Container): Promise<CreatedTenant | null> {
  const tenants = await resolve(c, T.Repositories).tenants.list();
  if (tenants.length > 0) return null;
  return resolve(c, T.CreateTenant).execute({ slug: 'demo', name: 'Demo Training Provider', plan: 'pilot' });
}
