import { createHash } from 'node:crypto';
import { newId, type SecretGenerator } from '@fundi/domain';
import {
  FixedClock,
  learnerMemory,
  memoryStorage,
  platformMemory,
  tenantMemory,
  trainingMemory,
  webhookMemory,
  hrSyncMemory,
  notificationMemory,
  staffMemory,
} from '@fundi/fakes';
import type { Actor } from '../common/actor.js';

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

/** Fake keys like `fakeSecrets`, but a real SHA-256 hash (hex), for use cases that order or seed by hashes. */
export function sha256Secrets(): SecretGenerator {
  return { ...fakeSecrets(), hash: (s) => createHash('sha256').update(s).digest('hex') };
}

/**
 * Use-case dependencies over the in-memory fakes of every existing capability, with a fixed clock. `store.tables`
 * lets a test look at the rows.
 */
export function fakeDeps(clock = new FixedClock()) {
  const { store, repositories, uow } = memoryStorage([
    platformMemory,
    tenantMemory,
    learnerMemory,
    trainingMemory,
    webhookMemory,
    hrSyncMemory,
    notificationMemory,
    staffMemory,
  ]);
  const tables = () => store.tables as ReturnType<typeof tableTypes>;
  return {
    store: {
      get tables() {
        return tables();
      },
    },
    repos: repositories(),
    uow,
    clock,
    secrets: fakeSecrets(),
  };
}

// Only for its type: the tables of every part together.
const tableTypes = () => ({
  ...platformMemory.tables(),
  ...tenantMemory.tables(),
  ...learnerMemory.tables(),
  ...trainingMemory.tables(),
  ...webhookMemory.tables(),
  ...hrSyncMemory.tables(),
  ...notificationMemory.tables(),
  ...staffMemory.tables(),
});

/** An admin actor of the tenant with a key id of its own; override the id, role or scopes. */
export function anActor(tenantId: string, o: Partial<Actor> = {}): Actor {
  return {
    tenantId,
    id: newId('key'),
    role: 'admin',
    scopes: ['learners:read', 'learners:write', 'learners:delete'],
    ...o,
  };
}
