import type { Hooks, OfferedHooks } from '@fundi/application';
import { AccessPolicy, type IdPrefix, type Scope, type ScopeGrants } from '@fundi/domain';
import { WEBHOOK_API_PURPOSE } from '@fundi/domain/webhooks';

/**
 * What a capability declares of itself beside its storage and use cases (docs/architecture.md, "A capability's
 * anatomy"): its scopes with the roles that get each, the id prefixes it makes, and the events it writes.
 */
export interface Declarations {
  scopes?: ScopeGrants;
  ids?: readonly IdPrefix[];
  /** By name; `subscribable: false` for an event sent but never subscribed to (the webhooks' test `ping`). */
  events?: Readonly<Record<string, { subscribable?: boolean }>>;
  /** What it offers other capabilities through hooks (its step of a learner's erasure, its triggers). */
  offers?: Partial<Hooks>;
}

/** The shared lists, derived from every capability's declarations. */
export interface Declared {
  access: AccessPolicy;
  /** The event names subscribers may ask for, in the capability list's order. */
  eventTypes: readonly string[];
  /** Every id prefix with the capability that makes it. */
  idPrefixes: ReadonlyMap<IdPrefix, string>;
  /** Every capability's offers, by hook, in the list's order. */
  hooks: OfferedHooks;
}

/** Merges the declarations; a scope, event or prefix declared by two capabilities (or malformed) fails at start. */
export function declaredBy(caps: readonly { name: string; declares?: Declarations }[]): Declared {
  const grants: Record<Scope, ScopeGrants[Scope]> = {};
  const events: string[] = [];
  const owner = new Map<string, string>();
  const claim = (what: string, key: string, cap: string) => {
    const before = owner.get(`${what} ${key}`);
    if (before) throw new Error(`The ${what} ${key} is declared by both ${before} and ${cap}`);
    owner.set(`${what} ${key}`, cap);
  };
  const idPrefixes = new Map<IdPrefix, string>();
  // Every offer under the need's name, in the list's order; the kernel's hooks are there when nobody offers them.
  const offered: Lists<Hooks> = { learnerErasure: [], subscriptionPurpose: [], triggers: [], systemActor: [] };
  for (const { name, declares: d } of caps) {
    for (const [scope, roles] of Object.entries(d?.scopes ?? {}) as [Scope, ScopeGrants[Scope]][]) {
      claim('scope', scope, name);
      grants[scope] = roles;
    }
    for (const [type, e] of Object.entries(d?.events ?? {})) {
      claim('event', type, name);
      if (e.subscribable !== false) events.push(type);
    }
    for (const prefix of d?.ids ?? []) {
      if (!/^[a-z]{3}$/.test(prefix)) throw new Error(`Malformed id prefix ${prefix} of ${name}: three letters a-z`);
      claim('id prefix', prefix, name);
      idPrefixes.set(prefix, name);
    }
    const purpose = d?.offers?.subscriptionPurpose;
    if (purpose) {
      if (purpose.name === WEBHOOK_API_PURPOSE) throw new Error(`${name} declares the webhook API's own purpose`);
      claim('subscription purpose', purpose.name, name);
      for (const type of purpose.events) claim('event', type, name);
    }
    for (const t of d?.offers?.triggers?.templates ?? []) claim('trigger', t.key, name);
    const offers: Partial<Hooks> = d?.offers ?? {};
    for (const need of Object.keys(offers) as (keyof Hooks)[]) push(offered, need, offers[need]);
  }
  // Another capability's hook is absent while nobody offers it: the exports offer their own types to theirs.
  const hooks = offered as OfferedHooks;
  return { access: new AccessPolicy(grants), eventTypes: events, idPrefixes, hooks };
}

/** A list of offers per hook, for the hooks offered so far. */
type Lists<T> = { [K in keyof T]?: T[K][] };

/** Adds a capability's offer to its hook's list. */
function push<T, K extends keyof T>(lists: Lists<T>, need: K, what: T[K] | undefined): void {
  if (what === undefined) return;
  const list = lists[need] ?? [];
  list.push(what);
  lists[need] = list;
}
