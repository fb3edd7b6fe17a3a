import type { ErasureStep } from '../learners/erasure-steps.js';
import type { SubscriptionPurpose } from '../webhooks/subscription-purpose.js';
import type { SystemActor } from './actor.js';
import type { Triggers } from './triggers.js';

/**
 * What a capability may offer another through a hook, by the name of the need (docs/architecture.md, "A
 * capability's anatomy"): the learners capability's erasure runs every capability's `learnerErasure` step, the
 * webhooks capability delivers for every capability's `subscriptionPurpose`, and people are told of a capability's
 * records by its `triggers`.
 */
export interface Hooks {
  learnerErasure: ErasureStep;
  /** Webhook subscriptions the capability keeps for itself (HR sync's outbound subscription). */
  subscriptionPurpose: SubscriptionPurpose;
  /** The triggers that tell people of its records: templates, their variables, the events they follow. */
  triggers: Triggers;
  /** The actor it acts as, with the origin of its changes in the audit trail (HR inbound's). */
  systemActor: SystemActor;
}

/** Every capability's offers, by hook, in the capability list's order. */
export type OfferedHooks = { readonly [K in keyof Hooks]: readonly Hooks[K][] };
