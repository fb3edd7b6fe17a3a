import { CreateTenant, type Actor } from '@fundi/application';
import type { WebhookDeps } from '@fundi/application/webhooks';
import { AccessPolicy } from '@fundi/domain';
import { NodeSecretGenerator } from '../system/node-secrets.js';
import { FixedClock } from '@fundi/testing';
import { AesGcmSecretBox } from '../system/secret-box.js';
import type { TestStorage } from './test-databases.js';

// The tenant's first key is not used here: one scope makes a policy.
const WORLD_ACCESS = new AccessPolicy({ 'webhooks:read': ['admin'] });

/**
 * The webhook use cases' dependencies over a test store, on a fixed clock, with a fresh tenant and an admin
 * actor of it (the store is shared by a file's tests: each world has a tenant of its own).
 */
export async function webhookWorld(storage: TestStorage) {
  const clock = new FixedClock(new Date('2026-06-01T08:00:00.000Z'));
  const all = { ...storage, clock };
  const deps: WebhookDeps = {
    ...all,
    box: new AesGcmSecretBox(Buffer.alloc(32, 9), 'webhook-secret'),
    // The learners' events only: the service's list is derived from every capability's declaration (apps/server).
    policy: { allowHttp: false, eventTypes: ['learner.created', 'learner.updated'] },
    receiverCheck: async () => {},
  };
  const tenant = await new CreateTenant({ ...all, secrets: new NodeSecretGenerator(), access: WORLD_ACCESS }).execute({
    slug: `t${Math.floor(Math.random() * 1e9)}`,
    name: 'T',
    plan: 'pilot',
  });
  const actor: Actor = { tenantId: tenant.tenant.id, id: 'key_test', role: 'admin', scopes: [] };
  return { clock, all, deps, actor };
}
