import type { Knex } from 'knex';
import type { Migration } from './migration.js';

/** Where knex records the migrations it ran (its default table, in the connection's schema). */
export const KNEX_MIGRATIONS_TABLE = 'knex_migrations';

/**
 * Renames knex's records of migrations a database knows by their former names (`Migration.formerly`) to their
 * names, in one transaction, so that knex finds them applied and runs none of them again. Idempotent: a database
 * without former names (new, or renamed before) is only read. A record whose new name is recorded already is
 * dropped. Returns how many records it renamed or dropped.
 */
export async function renameFormerMigrations(knex: Knex, migrations: readonly Migration[]): Promise<number> {
  const newName = new Map(migrations.flatMap((m) => (m.formerly === undefined ? [] : [[m.formerly, m.name]])));
  if (newName.size === 0 || !(await knex.schema.hasTable(KNEX_MIGRATIONS_TABLE))) return 0;
  const former = (q: Knex | Knex.Transaction) =>
    q(KNEX_MIGRATIONS_TABLE)
      .whereIn('name', [...newName.keys()])
      .pluck('name') as Promise<string[]>;
  if ((await former(knex)).length === 0) return 0;
  return knex.transaction(async (trx) => {
    let changed = 0;
    // Read again inside the transaction: another process may have renamed them meanwhile.
    for (const name of await former(trx)) {
      const to = newName.get(name)!;
      const recorded = await trx(KNEX_MIGRATIONS_TABLE).where({ name: to }).first('id');
      changed += recorded
        ? await trx(KNEX_MIGRATIONS_TABLE).where({ name }).delete()
        : await trx(KNEX_MIGRATIONS_TABLE).where({ name }).update({ name: to });
    }
    return changed;
  });
}
