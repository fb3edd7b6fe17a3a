import { describe, expect, it } from 'vitest';
import { knexFor, migrate, type DatabaseTarget } from '../db/open-database.js';
import { filesDefiningMigrations, migrationsExportedBy } from '../testing/migration-files.js';
import { freshDatabasesOfSuite, postgresAvailable } from '../testing/test-databases.js';
import { inRunOrder } from './run-order.js';

const all = inRunOrder((await migrationsExportedBy(filesDefiningMigrations())).flatMap((f) => f.migrations));
const pgUp = await postgresAvailable();

async function setLock(target: DatabaseTarget, locked: 0 | 1): Promise<void> {
  const knex = knexFor(target);
  try {
    await knex('knex_migrations_lock').update({ is_locked: locked });
  } finally {
    await knex.destroy();
  }
}

/** Processes that start at once (a rolling deploy, the CLI beside a server) each migrate the same database. */
for (const kind of ['sqlite', 'postgres'] as const) {
  (kind === 'postgres' && !pgUp ? describe.skip : describe)(`migrations started at once [${kind}]`, () => {
    const aDatabase = freshDatabasesOfSuite(kind);

    it('four at once on a fresh database: each migration applied once, nobody fails on the lock', async () => {
      const target = await aDatabase();
      const runs = await Promise.all([1, 2, 3, 4].map(() => migrate(target, all)));
      expect(runs.flat().sort()).toEqual(all.map((m) => m.name).sort());
      // And again, with nothing pending: knex still takes its lock; all four wait their turn.
      expect(await Promise.all([1, 2, 3, 4].map(() => migrate(target, all)))).toEqual([[], [], [], []]);
    }, 120_000);

    it('a lock table given two rows by processes that created it at once is repaired, not locked forever', async () => {
      const target = await aDatabase();
      await migrate(target, all);
      const knex = knexFor(target);
      try {
        await knex('knex_migrations_lock').insert({ is_locked: 0 });
        expect(await knex('knex_migrations_lock').count({ n: '*' })).toEqual([{ n: 2 }]);
      } finally {
        await knex.destroy();
      }
      expect(await migrate(target, all, 30_000)).toEqual([]);
      const after = knexFor(target);
      try {
        expect(await after('knex_migrations_lock').select('is_locked')).toEqual([{ is_locked: 0 }]);
      } finally {
        await after.destroy();
      }
    }, 60_000);

    it('a lock left by a crash is waited for, then reported with what to do', async () => {
      const target = await aDatabase();
      await migrate(target, all);
      await setLock(target, 1);
      const started = Date.now();
      await expect(migrate(target, all, 300)).rejects.toThrow(
        /stayed locked .* set is_locked = 0 in knex_migrations_lock/,
      );
      expect(Date.now() - started).toBeGreaterThanOrEqual(200);
      // Released while a process waits: it goes on.
      const waiting = migrate(target, all, 60_000);
      await new Promise((ok) => setTimeout(ok, 200));
      await setLock(target, 0);
      expect(await waiting).toEqual([]);
    }, 60_000);
  });
}
