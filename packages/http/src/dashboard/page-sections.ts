import type { SessionContext } from '@fundi/application/staff';
import type {
  ComposedSections,
  DashboardDeps,
  DashboardPages,
  PageSection,
  PageSlots,
  Slot,
  SlotOf,
} from './dashboard-deps.js';
import { can } from './web.js';

/**
 * Every part's sections of the shared pages, by slot: each slot's sections sorted by `order`, equal ones in the parts'
 * order (the capability list's).
 */
export function sectionsOf(parts: readonly DashboardPages[]): ComposedSections {
  const all = new Map<string, PageSection<Slot>[]>();
  for (const part of parts)
    for (const [slot, sections] of Object.entries(part.sections ?? {}) as [string, readonly PageSection<Slot>[]][])
      all.set(slot, [...(all.get(slot) ?? []), ...sections]);
  // `Array.prototype.sort` is stable: equal orders keep the list's order.
  return Object.fromEntries([...all].map(([slot, sections]) => [slot, sections.sort((a, b) => a.order - b.order)]));
}

/**
 * The sections of `slot`, in order, loaded in parallel: what each shows, or null for one the user's role may not see
 * (not loaded: its scope or role is not the user's) or that has nothing to show. The page places them, naming none.
 */
export function sectionsIn<K extends keyof PageSlots>(
  d: DashboardDeps,
  s: SessionContext,
  slot: K,
  at: SlotOf<K>['at'],
): Promise<(SlotOf<K>['shows'] | null)[]> {
  const sections: readonly PageSection<SlotOf<K>>[] = d.sections[slot] ?? [];
  return Promise.all(
    sections.map((x) =>
      (x.scope && !can(s, x.scope)) || (x.role && x.role !== s.user.role) ? null : x.render(d, s, at),
    ),
  );
}
