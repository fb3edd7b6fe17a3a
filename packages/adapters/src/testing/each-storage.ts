import { afterAll, beforeAll, describe } from 'vitest';
import type { CapabilityStorage, RepositoriesOf } from '../storage/capability-storage.js';
import {
  CORE_STORAGE,
  STORAGE_KINDS,
  openTestStorage,
  postgresAvailable,
  type StorageKind,
  type TestStorage,
} from './test-databases.js';

const pgUp = await postgresAvailable();

/**
 * Runs one contract suite against every storage: the in-memory fake, SQLite and Postgres. Postgres is skipped
 * with a notice when unreachable, except under CI=true where that fails. `get()` returns the open store, holding
 * the repositories of `parts` (by default the core capabilities').
 */
export function describeEachStorage<const P extends readonly CapabilityStorage<object>[] = typeof CORE_STORAGE>(
  name: string,
  suite: (get: () => TestStorage<RepositoriesOf<P>>, kind: StorageKind) => void,
  kinds: readonly StorageKind[] = STORAGE_KINDS,
  // Without `parts`, `P` is its default, `typeof CORE_STORAGE`; TypeScript cannot tie a default value to a type
  // parameter's default, hence the cast (each call's suite is typed by `P`).
  parts: P = CORE_STORAGE as unknown as P,
): void {
  for (const kind of kinds) {
    const d = kind === 'postgres' && !pgUp ? describe.skip : describe;
    d(`${name} [${kind}]`, () => {
      let storage: TestStorage<RepositoriesOf<P>>;
      beforeAll(async () => {
        storage = await openTestStorage(kind, parts);
      });
      afterAll(async () => {
        await storage?.close();
      });
      suite(() => storage, kind);
    });
  }
}
