import { type PerformanceEntry, PerformanceObserver, constants } from 'node:perf_hooks';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';

/** `FUNDI_HEAP_GROWING_PERCENT`'s default (docs/architecture.md, "Memory"). */
export const DEFAULT_HEAP_GROWING_PERCENT = 30;

/**
 * The least size (MB) the heap may reach before the next full collection, whatever survived the last one
 * (docs/architecture.md, "Memory"). A floor on the heap, not on the room past its live data: a server of 44 MB live
 * data gets 48 MB of room (the evidence bench's, 47-48 MB live, 44-45 MB), enough that a 10 MB upload's Buffers do
 * not start a full collection each; a bulk import, whose live heap is 60-80 MB, gets its 30% and no more. As a room
 * of 48 MB past any live heap (the rule before) it let the import's heap (76 MB live) reach 124 MB instead of 99 MB
 * before a full collection, a room of 32 MB 108 MB. Measured on a loaded machine, that was about 15 MB of peak heap;
 * the import's peak RSS stayed over 250 MB with every setting, evidence uploads over 50% of the bare PUT with every
 * one (docs/benchmarks.md, "Heap floor").
 */
export const MIN_HEAP_MB = 92;

/**
 * The most each of V8's two young-generation halves (semi-spaces) may grow to, in MB; `npm start` and `npm run worker`
 * start node with `--max-semi-space-size=4` (docs/architecture.md, "Memory"). V8's default on 64 bits is 16 MB: a young
 * generation of up to 32 MB that a bulk import fills and keeps, on top of its old generation. A flag of the process's
 * start: V8 sizes the young generation as the heap is made, and a flag set later (as `tuneHeap` does) changes nothing.
 */
export const SEMI_SPACE_MB = 4;

/** The node flags `npm start` and `npm run worker` run with (checked against package.json's scripts by a test). */
export const HEAP_NODE_FLAGS: readonly string[] = [`--max-semi-space-size=${SEMI_SPACE_MB}`];

/** The growing percent that lets a heap of `liveBytes` reach at least `MIN_HEAP_MB`, and never less than `percent`. */
export function growingPercentFor(percent: number, liveBytes: number): number {
  const room = MIN_HEAP_MB * 1024 * 1024 - liveBytes;
  return Math.max(percent, Math.ceil((100 * room) / Math.max(liveBytes, 1)));
}

let observer: PerformanceObserver | null = null;

const isMajor = (e: PerformanceEntry) =>
  (e as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR;

/**
 * Lets V8's heap grow to (100 + `percent`)% of what survived the last full collection before the next one, instead
 * of V8's own factor (up to 4x on a heap that collects fast). A bulk import's live heap is about 60 MB; V8's own
 * factor let the heap reach 140 MB and more of garbage first, and the process 340 MB. This is no cap: a heap that
 * needs more still gets it. 0 leaves V8's own heuristics. Set once, at start, before the work begins.
 *
 * The heap may always reach `MIN_HEAP_MB`: V8 counts the memory of Buffers kept since the last full collection
 * against the heap's room, and starts marking for the next one as soon as less than its young generation is left,
 * so a server of 44 MB live data with 30% (13 MB) of room did a full collection for every 10 MB upload. After each
 * full collection the percent is set again for the heap that survived it.
 */
export function tuneHeap(percent: number): void {
  observer?.disconnect();
  observer = null;
  if (percent <= 0) return;
  let current = growingPercentFor(percent, getHeapStatistics().used_heap_size);
  setFlagsFromString(`--heap-growing-percent=${current}`);
  observer = new PerformanceObserver((list) => {
    if (!list.getEntries().some(isMajor)) return;
    const next = growingPercentFor(percent, getHeapStatistics().used_heap_size);
    if (next !== current) {
      current = next;
      setFlagsFromString(`--heap-growing-percent=${current}`);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
}
