import type { Knex } from 'knex';

/**
 * Re-keys a table on `(tenant_id, <column>)` instead of `<column>` alone, keeping its rows and indexes, so that it can
 * be partitioned or distributed by tenant (docs/scaling.md). Postgres swaps the constraint in place; SQLite, which
 * cannot alter a primary key, has knex copy the table into one with the new key (its indexes are made again).
 */
export async function keyByTenant(knex: Knex, table: string, column: string): Promise<void> {
  await knex.schema.alterTable(table, (t) => {
    t.dropPrimary();
    t.primary(['tenant_id', column]);
  });
}

/** The way back: the primary key on `<column>` alone. */
export async function keyWithoutTenant(knex: Knex, table: string, column: string): Promise<void> {
  await knex.schema.alterTable(table, (t) => {
    t.dropPrimary();
    t.primary([column]);
  });
}
