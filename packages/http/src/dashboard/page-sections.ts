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
import { sectionsBySlot } from '../slot-sections.js';

/** Every part's sections of the shared pages, by slot, in order (`sectionsBySlot`). */
export function sectionsOf(parts: readonly DashboardPages[]): ComposedSections {
  return sectionsBySlot<PageSection<Slot>>(parts);
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
