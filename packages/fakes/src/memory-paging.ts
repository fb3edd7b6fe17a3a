import type { Page, PageRequest } from '@fundi/domain';

/** The same paging rules as the SQL repositories: sorted by id, keyset or offset, total of all matches. */
export function pageOf<T extends { id: string }>(all: T[], page: PageRequest): Page<T> {
  const sorted = [...all].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const from =
    page.kind === 'cursor'
      ? page.after
        ? sorted.filter((x) => x.id > page.after!)
        : sorted
      : sorted.slice(page.offset);
  return { items: from.slice(0, page.limit), total: sorted.length, hasMore: from.length > page.limit };
}
