import type { Knex } from 'knex';
import type { Page, PageRequest } from '@fundi/domain';
import { compile } from '../db/query-builder.js';
import type { SqlDb } from '../db/sql-db.js';

/**
 * Runs a filtered list in both paging styles: keyset on `id` for cursors, offset otherwise. `base` holds the
 * filters only; the total counts every match, ignoring the cursor.
 */
export async function pageQuery<R, T>(
  db: SqlDb,
  base: Knex.QueryBuilder,
  page: PageRequest,
  map: (row: R) => T,
  idColumn = 'id',
): Promise<Page<T>> {
  const count = compile(base.clone().clearSelect().clearOrder().count({ n: '*' }));
  const rowsQuery = base
    .clone()
    .orderBy(idColumn, 'asc')
    .limit(page.limit + 1);
  if (page.kind === 'cursor' && page.after) rowsQuery.where(idColumn, '>', page.after);
  if (page.kind === 'offset' && page.offset > 0) rowsQuery.offset(page.offset);
  const rows = compile(rowsQuery);
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
