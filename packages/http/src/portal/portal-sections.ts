import type { PortalSessionContext } from '@fundi/application/portal';
import type {
  ComposedPortalSections,
  PortalHttpDeps,
  PortalPages,
  PortalSection,
  PortalSlot,
  PortalSlotOf,
  PortalSlots,
} from './portal-deps.js';
import { sectionsBySlot } from '../slot-sections.js';

/** Every part's sections of the portal's pages, by slot, in order (`sectionsBySlot`). */
export function portalSectionsOf(parts: readonly PortalPages[]): ComposedPortalSections {
  return sectionsBySlot<PortalSection<PortalSlot>>(parts);
}

/**
 * The sections of `slot`, in order, loaded in parallel for the session's learner: what each shows, or null for one
 * that has nothing to show. The page places them, naming none.
 */
export function portalSectionsIn<K extends keyof PortalSlots>(
  d: PortalHttpDeps,
  s: PortalSessionContext,
  slot: K,
  at: PortalSlotOf<K>['at'],
): Promise<(PortalSlotOf<K>['shows'] | null)[]> {
  const sections: readonly PortalSection<PortalSlotOf<K>>[] = d.sections[slot] ?? [];
  return Promise.all(sections.map((x) => x.render(d, s, at)));
}
