import { FixedClock, InMemoryUnitOfWork, MemoryStore, inMemoryRepositories } from '@fundi/adapters';
import type { SecretGenerator } from '@fundi/domain';
import type { Actor } from '../shared/actor.js';
import type { CoreDeps, SecretDeps } from '../shared/ports.js';

/** Deterministic secrets: `fnd_test_1_...`, `fnd_test_2_...`, ... hashed by prefixing `h:`. */
export function fakeSecrets(): SecretGenerator {
  let n = 0;
  return {
    newApiKey() {
      const key = `fnd_test_${++n}_0123456789abcdef`;
      return { key, prefix: key.slice(0, 10), hash: `h:${key}` };
    },
    hash: (s) => `h:${s}`,
  };
}

/** Use-case dependencies over the in-memory fakes, with a fixed clock. */
export function fakeDeps(): CoreDeps & SecretDeps & { store: MemoryStore; clock: FixedClock } {
  const store = new MemoryStore();
  return { store, repos: inMemoryRepositories(store), uow: new InMemoryUnitOfWork(store), clock: new FixedClock(), secrets: fakeSecrets() };
}

export function anActor(tenantId: string, o: Partial<Actor> = {}): Actor {
  return { tenantId, id: 'key_actor', role: 'admin', scopes: ['learners:read', 'learners:write', 'learners:delete'], ...o };
}
