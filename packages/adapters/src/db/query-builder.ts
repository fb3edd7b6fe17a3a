import knexFactory, { type Knex } from 'knex';
import type { Dialect } from './sql-db.js';

const builders = new Map<string, Knex>();

/** A connection-less knex for composing dynamic SQL (filters, paging); `toSQL()` gives `?`-placeholder SQL. */
export function queryBuilder(dialect: Dialect): Knex {
  let qb = builders.get(dialect.name);
  if (!qb) {
    qb =
      dialect.name === 'sqlite'
        ? knexFactory({ client: 'better-sqlite3', useNullAsDefault: true })
        : knexFactory({ client: 'pg' });
    builders.set(dialect.name, qb);
  }
  return qb;
}

export function compile(builder: Knex.QueryBuilder): { sql: string; bindings: (string | number | boolean | null)[] } {
  const { sql, bindings } = builder.toSQL();
  return { sql, bindings: bindings as (string | number | boolean | null)[] };
}
