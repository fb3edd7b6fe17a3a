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

/**
 * Every part's sections of the portal's pages, by slot: each slot's sections sorted by `order`, equal ones in the
 * parts' order (the capability list's).
 */
export function portalSectionsOf(parts: readonly PortalPages[]): ComposedPortalSections {
  const all = new Map<string, PortalSection<PortalSlot>[]>();
  for (const part of parts)
    for (const [slot, sections] of Object.entries(part.sections ?? {}) as [
      string,
      readonly PortalSection<PortalSlot>[],
    ][])
      all.set(slot, [...(all.get(slot) ?? []), ...sections]);
  // `Array.prototype.sort` is stable: equal orders keep the list's order.
  return Object.fromEntries([...all].map(([slot, sections]) => [slot, sections.sort((a, b) => a.order - b.order)]));
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
