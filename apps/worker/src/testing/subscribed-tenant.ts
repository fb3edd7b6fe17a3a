import { closeContainer, useCasesOf, type DatabaseTarget } from '@fundi/adapters';
import { containerFor, tenants, webhookCapability } from '@fundi/server';

/** A new tenant of the store at `target`, subscribed to `learner.created` at `url` (a test receiver on 127.0.0.1). */
export async function subscribedTenant(target: DatabaseTarget, masterKey: Buffer, url: string): Promise<string> {
  const c = containerFor({
    database: target,
    masterKey,
    logLevel: 'silent',
    webhooks: { allowHttp: true, allowHosts: ['127.0.0.1'], timeoutMs: 1000 },
  });
  try {
    const slug = `w${Date.now()}${Math.floor(Math.random() * 1e6)}`;
    const tenant = await useCasesOf(c, tenants).createTenant.execute({ slug, name: 'Worker test', plan: 'pilot' });
    const actor = { tenantId: tenant.tenant.id, id: 'test', role: 'admin' as const, scopes: [] };
    await useCasesOf(c, webhookCapability).create.execute(actor, { url, events: ['learner.created'] });
    return tenant.tenant.id;
  } finally {
    await closeContainer(c);
  }
}
