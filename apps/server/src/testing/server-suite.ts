import { afterAll, beforeAll } from 'vitest';
import { describeEachStorage, type StorageKind } from '@fundi/adapters/testing';
import type { TestServer } from './test-server.js';

/**
 * An HTTP suite run once per storage kind (SQLite and Postgres unless `kinds` says otherwise) against a server that
 * `start(kind)` starts before the suite's tests and that is closed after them. `world()` answers what `start`
 * returned: call it inside a test or hook, once the suite has begun.
 */
export function describeServerSuite<W extends { s: TestServer }>(
  name: string,
  start: (kind: StorageKind) => Promise<W>,
  suite: (world: () => W, kind: StorageKind) => void,
  kinds: readonly StorageKind[] = ['sqlite', 'postgres'],
): void {
  describeEachStorage(
    name,
    (_get, kind) => {
      let world: W | undefined;
      beforeAll(async () => {
        world = await start(kind);
      });
      afterAll(() => world?.s.close());
      suite(() => {
        if (!world) throw new Error(`the server of "${name}" has not started`);
        return world;
      }, kind);
    },
    kinds,
  );
}
