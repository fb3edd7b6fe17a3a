import type { Knex } from 'knex';

/** A knex migration in code (knex's file loader cannot import .ts under vitest). Runs on SQLite and Postgres. */
export interface Migration {
  name: string;
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
