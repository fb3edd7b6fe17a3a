import { setFlagsFromString } from 'node:v8';

/** `FUNDI_HEAP_GROWING_PERCENT`'s default (docs/architecture.md, "Memory"). */
export const DEFAULT_HEAP_GROWING_PERCENT = 30;

/**
 * Lets V8's heap grow to (100 + `percent`)% of what survived the last full collection before the next one, instead
 * of V8's own factor (up to 4x on a heap that collects fast). A bulk import's live heap is about 60 MB; V8's own
 * factor let the heap reach 140 MB and more of garbage first, and the process 340 MB. This is no cap: a heap that
 * needs more still gets it. 0 leaves V8's own heuristics. Set once, at start, before the work begins.
 */
export function tuneHeap(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${Math.round(percent)}`);
}
