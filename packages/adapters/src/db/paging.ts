import type { Knex } from 'knex';
import type { Page, PageRequest } from '@fundi/domain';
import { compile } from './query-builder.js';
import type { SqlDb } from './sql-db.js';

/**
 * A list's sort before its id (which breaks ties): ORDER BY terms written over `column(name)`, so that the same sort
 * is written for the page's rows and for the outer query of the one-statement form (over its alias `r`).
 */
export type PageOrder = (column: (name: string) => string) => string;

/**
 * Runs a filtered list in both paging styles: keyset on `id` for cursors, offset otherwise. `base` holds the
 * filters only; the total counts every match, ignoring the cursor.
 *
 * `oneStatement` (for a table whose rows are read by their own columns, with no column named `__total`): where a
 * statement costs a round trip to a database server (`Dialect.runsOnCallerThread` false), the count and the page
 * are one statement, `(count) LEFT JOIN (page) ON true`: one round trip and one pooled connection per list instead
 * of two (docs/performance.md, "Writes and lists on Postgres"). Each row then also carries `__total`, which `map`
 * does not read. `order` sorts the page (then by id) in both forms: the outer query repeats it over the page's rows.
 *
 * `'scan'` (an offset page of a list whose filter reads every row of the tenant anyway, such as a search by words):
 * one statement on either database that finds the matches once and counts them as it pages, `COUNT(*) OVER ()`,
 * instead of a pass for the count and another for the page.
 */
export async function pageQuery<R, T>(
  db: SqlDb,
  base: Knex.QueryBuilder,
  page: PageRequest,
  map: (row: R) => T,
  idColumn = 'id',
  oneStatement: boolean | 'scan' = false,
  order?: PageOrder,
  countBase: Knex.QueryBuilder = base,
): Promise<Page<T>> {
  if (oneStatement === 'scan' && page.kind === 'offset')
    return scanned(db, base, page, map, idColumn, order, countBase);
  const count = compile(countBase.clone().clearSelect().clearOrder().count({ n: '*' }));
  const rowsQuery = base.clone();
  if (order) rowsQuery.orderByRaw(order((c) => c));
  rowsQuery.orderBy(idColumn, 'asc').limit(page.limit + 1);
  if (page.kind === 'cursor' && page.after) rowsQuery.where(idColumn, '>', page.after);
  if (page.kind === 'offset' && page.offset > 0) rowsQuery.offset(page.offset);
  const rows = compile(rowsQuery);
  if (oneStatement !== false && !db.dialect.runsOnCallerThread) {
    const both = await db.all<R & { __total: number | null; id: unknown }>(
      `SELECT r.*, c.n AS __total FROM (${count.sql}) c LEFT JOIN (${rows.sql}) r ON true ORDER BY ${order ? `${order((c) => `r.${c}`)}, ` : ''}r.${idColumn}`,
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

/** `pageQuery`'s `'scan'` form: the matches found once, counted by a window over them, sorted and paged. */
async function scanned<R, T>(
  db: SqlDb,
  base: Knex.QueryBuilder,
  page: { offset: number; limit: number },
  map: (row: R) => T,
  idColumn: string,
  order: PageOrder | undefined,
  countBase: Knex.QueryBuilder,
): Promise<Page<T>> {
  const inner = compile(base.clone().clearOrder());
  const sort = `${order ? `${order((c) => `p.${c}`)}, ` : ''}p.${idColumn}`;
  const rows = await db.all<R & { __total: number | string }>(
    `SELECT p.*, COUNT(*) OVER () AS __total FROM (${inner.sql}) p ORDER BY ${sort} LIMIT ? OFFSET ?`,
    [...inner.bindings, page.limit + 1, page.offset],
  );
  // A page past the last match has no row to carry the count: counted on its own.
  let total = rows.length ? Number(rows[0]!.__total) : 0;
  if (rows.length === 0 && page.offset > 0) {
    const count = compile(countBase.clone().clearSelect().clearOrder().count({ n: '*' }));
    total = Number((await db.first<{ n: number }>(count.sql, count.bindings))?.n ?? 0);
  }
  return { items: rows.slice(0, page.limit).map(map), total, hasMore: rows.length > page.limit };
}
