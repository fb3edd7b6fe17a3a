import { afterAll, beforeAll, describe } from 'vitest';
import { STORAGE_KINDS, openTestStorage, postgresAvailable, type StorageKind, type TestStorage } from './test-databases.js';

const pgUp = await postgresAvailable();

/**
 * Runs one contract suite against every storage: the in-memory fake, SQLite and Postgres. Postgres is skipped
 * with a notice when unreachable, except under CI=true where that fails. `get()` returns the open store.
 */
export function describeEachStorage(name: string, suite: (get: () => TestStorage, kind: StorageKind) => void, kinds: readonly StorageKind[] = STORAGE_KINDS): void {
  for (const kind of kinds) {
    const d = kind === 'postgres' && !pgUp ? describe.skip : describe;
    d(`${name} [${kind}]`, () => {
      let storage: TestStorage;
      beforeAll(async () => {
        storage = await openTestStorage(kind);
      });
      afterAll(async () => {
        await storage?.close();
      });
      suite(() => storage, kind);
    });
  }
}
