import type { Knex } from 'knex';
import type { Page, PageRequest } from '@fundi/domain';
import { compile } from '../db/query-builder.js';
import type { SqlDb } from '../db/sql-db.js';

/**
 * Runs a filtered list in both paging styles: keyset on `id` for cursors, offset otherwise. `base` holds the
 * filters only; the total counts every match, ignoring the cursor.
 *
 * `oneStatement` (for a table whose rows are read by their own columns, with no column named `__total`): where a
 * statement costs a round trip to a database server (`Dialect.runsOnCallerThread` false), the count and the page
 * are one statement, `(count) LEFT JOIN (page) ON true`: one round trip and one pooled connection per list instead
 * of two (docs/performance.md, "Writes and lists on Postgres"). Each row then also carries `__total`, which `map`
 * does not read.
 */
export async function pageQuery<R, T>(
  db: SqlDb,
  base: Knex.QueryBuilder,
  page: PageRequest,
  map: (row: R) => T,
  idColumn = 'id',
  oneStatement = false,
): Promise<Page<T>> {
  const count = compile(base.clone().clearSelect().clearOrder().count({ n: '*' }));
  const rowsQuery = base
    .clone()
    .orderBy(idColumn, 'asc')
    .limit(page.limit + 1);
  if (page.kind === 'cursor' && page.after) rowsQuery.where(idColumn, '>', page.after);
  if (page.kind === 'offset' && page.offset > 0) rowsQuery.offset(page.offset);
  const rows = compile(rowsQuery);
  if (oneStatement && !db.dialect.runsOnCallerThread) {
    const both = await db.all<R & { __total: number | null; id: unknown }>(
      `SELECT r.*, c.n AS __total FROM (${count.sql}) c LEFT JOIN (${rows.sql}) r ON true ORDER BY r.${idColumn}`,
      [...count.bindings, ...rows.bindings],
    );
    // No row matched: the one row is the count's, with the page's columns null.
    const found = both[0]?.id == null ? [] : both;
    return {
      items: found.slice(0, page.limit).map(map),
      total: Number(both[0]?.__total ?? 0),
      hasMore: found.length > page.limit,
    };
  }
  const [totalRow, found] = await Promise.all([
    db.first<{ n: number }>(count.sql, count.bindings),
    db.all<R>(rows.sql, rows.bindings),
  ]);
  return {
    items: found.slice(0, page.limit).map(map),
    total: Number(totalRow?.n ?? 0),
    hasMore: found.length > page.limit,
  };
}
