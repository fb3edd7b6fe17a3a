import type { ErasureStep } from '../learners/erasure-steps.js';

/**
 * What a capability may offer another through a hook, by the name of the need (docs/architecture.md, "A
 * capability's anatomy"): the learners capability's erasure runs every capability's `learnerErasure` step.
 */
export interface Hooks {
  learnerErasure: ErasureStep;
}

/** Every capability's offers, by hook, in the capability list's order. */
export type OfferedHooks = { readonly [K in keyof Hooks]: readonly Hooks[K][] };
