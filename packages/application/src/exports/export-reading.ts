import { DomainError, type Page, type PageRequest } from '@fundi/domain';
import type { LearnerRepos } from '@fundi/domain/learners';
import type { TrainingRepos } from '@fundi/domain/training';

/** Rows are read in keyset pages of this many: memory holds one page, whatever the export's size. */
export const BATCH = 500;

/** What the regulator files read: learners and their enrolments, programmes and results. */
export type ReadRepos = LearnerRepos & TrainingRepos;

/** Every item of a keyset-paged list, one page in memory at a time. */
export async function* pages<T extends { id: string }>(
  fetch: (page: PageRequest) => Promise<Page<T>>,
): AsyncGenerator<T[]> {
  let after: string | null = null;
  for (;;) {
    const p = await fetch({ kind: 'cursor', after, limit: BATCH });
    if (p.items.length) yield p.items;
    if (!p.hasMore || !p.items.length) return;
    after = p.items[p.items.length - 1]!.id;
  }
}

/** The first and the last instant of a `YYYY-MM-DD` filter date, as stored instants compare. */
export const dayStart = (d?: string) => (d ? `${d}T00:00:00.000Z` : undefined);
export const dayEnd = (d?: string) => (d ? `${d}T23:59:59.999Z` : undefined);

/**
 * The `status` filter as the listed entity's own status type. The request was checked against the same list
 * (`checkRequest`), so a status it does not name means the stored export was altered.
 */
export function statusOf<S extends string>(allowed: readonly S[], status: string | undefined): S | undefined {
  if (status === undefined) return undefined;
  const found = allowed.find((s) => s === status);
  if (found === undefined) throw DomainError.invalid('filters.status', `must be one of ${allowed.join(', ')}`);
  return found;
}
