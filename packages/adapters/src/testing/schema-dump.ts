import type { Knex } from 'knex';

type Row = Record<string, unknown>;

async function rows(knex: Knex, sql: string, bindings: readonly unknown[] = []): Promise<Row[]> {
  const r = (await knex.raw(sql, bindings as Knex.RawBinding[])) as Row[] | { rows: Row[] };
  return Array.isArray(r) ? r : r.rows;
}

/**
 * The names of a table's indexes (the dialect's `indexesQuery`), read through `knex`'s own connection: a store's
 * SQLite reader may still hold a snapshot from before a migration the test has just run or undone.
 */
export async function indexNames(knex: Knex, dialect: { indexesQuery: string }, table: string): Promise<string[]> {
  return (await rows(knex, dialect.indexesQuery, [table])).map((r) => String(r.name));
}

/**
 * What a migrated schema is made of, read from the database's catalog, in a form two databases can be compared by:
 * tables and their columns, indexes, constraints, triggers, functions and table options. Postgres names are those of
 * the current schema, with the schema's own name taken out of every definition.
 */
export async function schemaDump(knex: Knex): Promise<Record<string, Row[]>> {
  if (knex.client.config.client !== 'pg') {
    const objects = await rows(
      knex,
      "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name",
    );
    const columns: Row[] = [];
    for (const t of objects.filter((o) => o.type === 'table'))
      for (const c of await rows(knex, `PRAGMA table_info(${JSON.stringify(t.name)})`))
        columns.push({ table: t.name, ...c });
    return { objects, columns };
  }
  const [{ schema }] = (await rows(knex, 'SELECT current_schema() AS schema')) as [{ schema: string }];
  const plain = (r: Row[]) =>
    r.map((x) =>
      Object.fromEntries(
        Object.entries(x).map(([k, v]) => [k, typeof v === 'string' ? v.replaceAll(`${schema}.`, '') : v]),
      ),
    );
  const ns = `(SELECT oid FROM pg_namespace WHERE nspname = current_schema())`;
  return {
    tables: await rows(
      knex,
      `SELECT c.relname, c.relkind, c.relpersistence, c.reloptions FROM pg_class c
       WHERE c.relnamespace = ${ns} AND c.relkind IN ('r', 'p', 'v', 'm', 'S') ORDER BY c.relname`,
    ),
    columns: await rows(
      knex,
      `SELECT table_name, column_name, ordinal_position, data_type, character_maximum_length, is_nullable,
              column_default
       FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`,
    ),
    indexes: plain(
      await rows(
        knex,
        'SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() ORDER BY indexname',
      ),
    ),
    constraints: plain(
      await rows(
        knex,
        `SELECT conrelid::regclass::text AS tbl, conname, pg_get_constraintdef(oid) AS def FROM pg_constraint
         WHERE connamespace = ${ns} ORDER BY tbl, conname`,
      ),
    ),
    triggers: plain(
      await rows(
        knex,
        `SELECT tgrelid::regclass::text AS tbl, tgname, pg_get_triggerdef(t.oid) AS def FROM pg_trigger t
         JOIN pg_class c ON c.oid = t.tgrelid WHERE c.relnamespace = ${ns} AND NOT t.tgisinternal ORDER BY tbl, tgname`,
      ),
    ),
    functions: plain(
      await rows(
        knex,
        `SELECT proname, pg_get_functiondef(oid) AS def FROM pg_proc WHERE pronamespace = ${ns} ORDER BY proname`,
      ),
    ),
  };
}
