import { DomainError } from './errors.js';

/**
 * How a list is paged. Form A pages by keyset (`after` = the last id seen, ids sort by creation time);
 * Form B by offset. Repositories honour both and always report the filtered total.
 */
export type PageRequest =
  | { kind: 'cursor'; after: string | null; limit: number }
  | { kind: 'offset'; offset: number; limit: number };

export interface Page<T> {
  items: T[];
  total: number;
  hasMore: boolean;
}

/**
 * The paging rules of the SQL repositories applied to a list held in memory: sorted by id, keyset or offset, total
 * of every item given. For small sets read whole (a tenant's staff users) and for the in-memory fakes.
 */
export function pageOf<T extends { id: string }>(all: readonly T[], page: PageRequest): Page<T> {
  const sorted = [...all].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const from =
    page.kind === 'cursor'
      ? page.after
        ? sorted.filter((x) => x.id > page.after!)
        : sorted
      : sorted.slice(page.offset);
  return { items: from.slice(0, page.limit), total: sorted.length, hasMore: from.length > page.limit };
}

/**
 * The same rules for a list held in memory in its own stable order whose items have no `id` (evidence versions by
 * number, the notification templates in their order of registration), kept in that order: Form A's keyset is the
 * natural key (`keyOf`) of the last item seen, Form B pages by offset. A key no longer in the list is invalid input:
 * the client starts again without its cursor.
 */
export function pageInOrder<T>(all: readonly T[], page: PageRequest, keyOf: (item: T) => string): Page<T> {
  let start = 0;
  if (page.kind === 'offset') start = page.offset;
  else if (page.after !== null) {
    const at = all.findIndex((x) => keyOf(x) === page.after);
    if (at < 0) throw DomainError.invalid('cursor', 'names an item no longer in the list: start again without it');
    start = at + 1;
  }
  const from = all.slice(start);
  return { items: from.slice(0, page.limit), total: all.length, hasMore: from.length > page.limit };
}
