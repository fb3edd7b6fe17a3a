import type { Container } from 'inversify';
import { tenants, reposOf } from './capabilities/index.js';
import { useCasesOf } from '@fundi/adapters';
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

/**
 * When a `demo` tenant exists, prints its dashboard sign-in link, and how to create the first administrator
 * when it has no staff user yet (docs/dashboard.md, "Sign-in and sessions").
 */
export async function printDashboardLink(
  c: Container,
  url: string,
  write = (t: string) => void process.stdout.write(t),
): Promise<void> {
  const repos = reposOf(c);
  const demo = await repos.tenants.findBySlug('demo');
  if (!demo) return;
  write(`Dashboard: ${url}/dashboard/sign-in?tenant=demo\n`);
  if ((await repos.staffCredentials.listByTenant(demo.id)).length === 0) {
    write(
      'No dashboard user yet. Create the first administrator:\n' +
        '    npm run fundi -- users create --tenant demo --email you@example.org --name "Your Name" --role admin --password-stdin\n\n',
    );
  }
}
