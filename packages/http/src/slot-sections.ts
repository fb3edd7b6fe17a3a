/**
 * Every part's sections of shared pages, by slot (the dashboard's and the portal's, docs/dashboard.md "Shared
 * pages"): each slot's sections sorted by `order`, equal ones in the parts' order (the capability list's).
 */
export function sectionsBySlot<S extends { order: number }>(
  parts: readonly { sections?: Readonly<Record<string, readonly S[] | undefined>> }[],
): Record<string, S[]> {
  const all = new Map<string, S[]>();
  for (const part of parts)
    for (const [slot, sections] of Object.entries(part.sections ?? {}))
      all.set(slot, [...(all.get(slot) ?? []), ...(sections ?? [])]);
  // `Array.prototype.sort` is stable: equal orders keep the list's order.
  return Object.fromEntries([...all].map(([slot, sections]) => [slot, sections.sort((a, b) => a.order - b.order)]));
}
