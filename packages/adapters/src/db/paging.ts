import type { Knex } from 'knex';
import type { Page, PageRequest } from '@fundi/domain';
import { compile } from './query-builder.js';
import type { Binding, SqlDb } from './sql-db.js';

/**
 * A list's sort before its id (which breaks ties): ORDER BY terms written over `column(name)`, so that the same sort
 * is written for the page's rows and for the outer query of the one-statement form (over its alias `r`).
 */
export type PageOrder = (column: (name: string) => string) => string;

/**
 * How a list's rows are read as arrays (`SqlDb.allArrays`) straight into its items, with no object made per row:
 * the statement selects `columns` first, in this order (any others after them: a sort key, the count), and `read`
 * makes an item of a row's values.
 */
export interface RowReader<T> {
  readonly columns: readonly string[];
  read(values: readonly unknown[]): T;
}

/** A page's rows: objects made into items by a function, or arrays by a `RowReader`. */
export type PageRows<R, T> = ((row: R) => T) | RowReader<T>;

/**
 * A statement's rows: how many there were, the first's id (null when the one row is a count's alone) and `__total`
 * where the statement selects it (last, in the arrays of a `RowReader`), and the first `limit` as items.
 */
interface Fetched<T> {
  length: number;
  firstId: unknown;
  firstTotal: unknown;
  items(limit: number): T[];
}

/** Runs a page's statement and reads its rows as `rows` says: through `SqlDb.all` for a function, else as arrays. */
async function fetchRows<R, T>(
  db: SqlDb,
  rows: PageRows<R, T>,
  idColumn: string,
  sql: string,
  bindings: readonly Binding[],
): Promise<Fetched<T>> {
  if (typeof rows === 'function') {
    const found = await db.all<R & { __total?: unknown; id?: unknown }>(sql, bindings);
    return {
      length: found.length,
      firstId: found[0]?.id,
      firstTotal: found[0]?.__total,
      items: (limit) => found.slice(0, limit).map(rows),
    };
  }
  const found = await db.allArrays(sql, bindings);
  const first = found[0];
  const idAt = rows.columns.indexOf(idColumn.slice(idColumn.lastIndexOf('.') + 1));
  return {
    length: found.length,
    firstId: first?.[idAt],
    firstTotal: first?.[first.length - 1],
    items: (limit) => {
      const n = Math.min(limit, found.length);
      const out = new Array<T>(n);
      for (let i = 0; i < n; i++) out[i] = rows.read(found[i]!);
      return out;
    },
  };
}

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
  map: PageRows<R, T>,
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
    const both = await fetchRows(
      db,
      map,
      'id',
      `SELECT r.*, c.n AS __total FROM (${count.sql}) c LEFT JOIN (${rows.sql}) r ON true ORDER BY ${order ? `${order((c) => `r.${c}`)}, ` : ''}r.${idColumn}`,
      [...count.bindings, ...rows.bindings],
    );
    // No row matched: the one row is the count's, with the page's columns null.
    const matched = both.firstId != null;
    return {
      items: matched ? both.items(page.limit) : [],
      total: Number(both.firstTotal ?? 0),
      hasMore: matched && both.length > page.limit,
    };
  }
  const [totalRow, found] = await Promise.all([
    db.first<{ n: number }>(count.sql, count.bindings),
    fetchRows(db, map, idColumn, rows.sql, rows.bindings),
  ]);
  return {
    items: found.items(page.limit),
    total: Number(totalRow?.n ?? 0),
    hasMore: found.length > page.limit,
  };
}

/** `pageQuery`'s `'scan'` form: the matches found once, counted by a window over them, sorted and paged. */
async function scanned<R, T>(
  db: SqlDb,
  base: Knex.QueryBuilder,
  page: { offset: number; limit: number },
  map: PageRows<R, T>,
  idColumn: string,
  order: PageOrder | undefined,
  countBase: Knex.QueryBuilder,
): Promise<Page<T>> {
  const inner = compile(base.clone().clearOrder());
  const sort = `${order ? `${order((c) => `p.${c}`)}, ` : ''}p.${idColumn}`;
  const rows = await fetchRows(
    db,
    map,
    idColumn,
    `SELECT p.*, COUNT(*) OVER () AS __total FROM (${inner.sql}) p ORDER BY ${sort} LIMIT ? OFFSET ?`,
    [...inner.bindings, page.limit + 1, page.offset],
  );
  // A page past the last match has no row to carry the count: counted on its own.
  let total = rows.length ? Number(rows.firstTotal) : 0;
  if (rows.length === 0 && page.offset > 0) {
    const count = compile(countBase.clone().clearSelect().clearOrder().count({ n: '*' }));
    total = Number((await db.first<{ n: number }>(count.sql, count.bindings))?.n ?? 0);
  }
  return { items: rows.items(page.limit), total, hasMore: rows.length > page.limit };
}
