import type { Knex } from 'knex';

/** A knex migration in code (knex's file loader cannot import .ts under vitest). Runs on SQLite and Postgres. */
export interface Migration {
  /**
   * `<capability>/<YYYYMMDDHHMM>-<what>`: the folder of the capability whose tables it creates or changes, the UTC
   * minute it was written, and what it does in kebab-case (`learners/202611242305-live-index`). Its file is
   * `packages/adapters/src/<capability>/migrations/<YYYYMMDDHHMM>-<what>.ts`; knex records it under this name.
   */
  name: string;
  /**
   * The name a database migrated by an older release knows it by (`020-learner-live-index`): `migrate` renames
   * knex's record of it to `name` before migrating, so it never runs twice.
   */
  formerly?: string;
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

/** A knex migration source over a fixed, ordered list. */
export function migrationSource(migrations: readonly Migration[]): Knex.MigrationSource<Migration> {
  return {
    getMigrations: async () => [...migrations],
    getMigrationName: (m) => m.name,
    getMigration: async (m) => m,
  };
}
