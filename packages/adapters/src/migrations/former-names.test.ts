import { describe, expect, it } from 'vitest';
import { knexFor, migrate, type DatabaseTarget } from '../db/open-database.js';
import { filesDefiningMigrations, migrationsExportedBy } from '../testing/migration-files.js';
import { schemaDump } from '../testing/schema-dump.js';
import { freshDatabasesOfSuite, postgresAvailable } from '../testing/test-databases.js';
import { KNEX_MIGRATIONS_TABLE, renameFormerMigrations } from './former-names.js';
import type { Migration } from './migration.js';
import { inRunOrder } from './run-order.js';

const all = inRunOrder((await migrationsExportedBy(filesDefiningMigrations())).flatMap((f) => f.migrations));
const renamed = all.filter((m) => m.formerly !== undefined);
/** The migrations as an older release knew them: their former names, run in the order of those names. */
const underFormerNames: Migration[] = renamed
  .map(({ formerly, up, down }) => ({ name: formerly!, up, down }))
  .sort((a, b) => (a.name < b.name ? -1 : 1));

const pgUp = await postgresAvailable();

async function withKnex<T>(target: DatabaseTarget, f: (knex: ReturnType<typeof knexFor>) => Promise<T>): Promise<T> {
  const knex = knexFor(target);
  try {
    return await f(knex);
  } finally {
    await knex.destroy();
  }
}
const recorded = (target: DatabaseTarget) =>
  withKnex(target, (k) => k(KNEX_MIGRATIONS_TABLE).orderBy('id').pluck('name') as Promise<string[]>);
const dump = (target: DatabaseTarget) => withKnex(target, schemaDump);

for (const kind of ['sqlite', 'postgres'] as const) {
  (kind === 'postgres' && !pgUp ? describe.skip : describe)(
    `a database migrated under the former names [${kind}]`,
    () => {
      const aDatabase = freshDatabasesOfSuite(kind);

      it('migrates forward without running anything again, to the schema of a fresh database', async () => {
        const old = await aDatabase();
        expect(await migrate(old, underFormerNames)).toEqual(underFormerNames.map((m) => m.name));
        const since = all.filter((m) => m.formerly === undefined).map((m) => m.name);
        expect(await migrate(old, all)).toEqual(since);
        expect(await recorded(old)).toEqual(all.map((m) => m.name));
        expect(await migrate(old, all)).toEqual([]);
        expect(await withKnex(old, (k) => renameFormerMigrations(k, all))).toBe(0);

        const fresh = await aDatabase();
        expect(await migrate(fresh, all)).toEqual(all.map((m) => m.name));
        const [a, b] = [await dump(old), await dump(fresh)];
        expect(Object.values(a).flat().length).toBeGreaterThan(100);
        expect(a).toEqual(b);
      });

      it('part-way under the former names, runs only the rest, under the new names', async () => {
        const half = Math.floor(underFormerNames.length / 2);
        const old = await aDatabase();
        await migrate(old, underFormerNames.slice(0, half));
        const done = new Set(underFormerNames.slice(0, half).map((m) => m.name));
        const rest = all.filter((m) => !done.has(m.formerly ?? '')).map((m) => m.name);
        expect(await migrate(old, all)).toEqual(rest);
        expect(await recorded(old)).toEqual(all.map((m) => m.name));
      });

      it('renames in one transaction: when one rename fails, none is made', async () => {
        const old = await aDatabase();
        await migrate(old, underFormerNames);
        const last = renamed.at(-1)!.name;
        await withKnex(old, async (k) => {
          // A trigger refuses the last rename, after the others were made in the same transaction.
          if (kind === 'sqlite')
            await k.raw(`CREATE TRIGGER refuse_rename BEFORE UPDATE ON ${KNEX_MIGRATIONS_TABLE}
            WHEN NEW.name = '${last}' BEGIN SELECT RAISE(ABORT, 'refused'); END`);
          else {
            await k.raw(`CREATE FUNCTION refuse_rename() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN IF NEW.name = '${last}' THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$`);
            await k.raw(`CREATE TRIGGER refuse_rename BEFORE UPDATE ON ${KNEX_MIGRATIONS_TABLE}
            FOR EACH ROW EXECUTE FUNCTION refuse_rename()`);
          }
          await expect(renameFormerMigrations(k, all)).rejects.toThrow(/refused/);
          expect(await k(KNEX_MIGRATIONS_TABLE).orderBy('id').pluck('name')).toEqual(
            underFormerNames.map((m) => m.name),
          );
          await k.raw(`DROP TRIGGER refuse_rename${kind === 'postgres' ? ` ON ${KNEX_MIGRATIONS_TABLE}` : ''}`);
        });
        expect(await migrate(old, all)).toEqual(all.filter((m) => m.formerly === undefined).map((m) => m.name));
        expect(await recorded(old)).toEqual(all.map((m) => m.name));
      });
    },
  );
}
