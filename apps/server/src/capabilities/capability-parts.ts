import { declaredBy, resolve, T, useCasesOf } from '@fundi/adapters';
import type { JobDefinition, RetentionTask } from '@fundi/application';
import type { EventReaction } from '@fundi/application/webhooks';
import type { DashboardPages, RouteDef } from '@fundi/http';
import type { PortalPages } from '@fundi/http/portal';
import type { Container } from 'inversify';
import type { Capability, CommandIo, Rewrapped, UseCaseHooks } from './capability.js';
import type { Capabilities } from './capability-list.js';

/**
 * The list as the wiring below sees it: each capability's use cases are handed back to the same capability's routes,
 * jobs and reactions, so their type does not matter here (each module is checked where it is declared).
 */
function wiring(caps: Capabilities): readonly Capability<string, unknown, unknown, object, object>[] {
  return caps;
}

/** Every route of every capability, built from the container's use cases; a scope no capability declares fails. */
export function routesOf(c: Container, caps: Capabilities): RouteDef[] {
  const routes = wiring(caps).flatMap((cap) => cap.routes?.(useCasesOf(c, cap)) ?? []);
  const scopes: readonly string[] = declaredBy(caps).access.scopes;
  for (const r of routes)
    if (r.scope && r.scope !== 'any' && !scopes.includes(r.scope))
      throw new Error(`${r.method.toUpperCase()} ${r.path} needs the scope ${r.scope}, which no capability declares`);
  return routes;
}

/**
 * Every capability's dashboard pages and navigation entries, in the list's order; an entry needing a scope nobody
 * declares fails (docs/architecture.md, "A capability's anatomy").
 */
export function dashboardPartsOf(caps: Capabilities): DashboardPages[] {
  const parts = wiring(caps).flatMap((cap) => (cap.dashboard ? [cap.dashboard] : []));
  const scopes: readonly string[] = declaredBy(caps).access.scopes;
  for (const e of parts.flatMap((p) => p.nav ?? []))
    if (e.scope && !scopes.includes(e.scope))
      throw new Error(`The dashboard entry ${e.href} needs the scope ${e.scope}, which no capability declares`);
  return parts;
}

/** Every capability's pages and sections of the learner portal, in the list's order. */
export function portalPartsOf(caps: Capabilities): PortalPages[] {
  return wiring(caps).flatMap((cap) => (cap.portal ? [cap.portal] : []));
}

/** One type holding every member of the union `U` (each capability's offer to the pages). */
type Intersection<U> = (U extends unknown ? (part: U) => void : never) extends (all: infer I) => void ? I : never;

/** What a capability offers the pages: the return type of its `pageDeps`, nothing where it has none. */
type PageDepsOffered<C> = C extends { pageDeps?(useCases: never): infer D } ? D : never;

/** The use cases every capability hands the dashboard's and the portal's pages, under the names they read them by. */
export type PageDeps = Intersection<PageDepsOffered<Capabilities[number]>>;

/**
 * Every capability's offer to the pages, merged in the list's order. Its type is derived from the same list, one
 * offer per capability, so a use case the pages need that no capability offers fails to compile where it is used.
 */
export function pageDepsOf(c: Container, caps: Capabilities): PageDeps {
  const offers = wiring(caps).map((cap) => cap.pageDeps?.(useCasesOf(c, cap)) ?? {});
  // `Object.assign` over a list is typed `any`: the merge is what `PageDeps` says, one offer per capability.
  return Object.assign({}, ...offers) as PageDeps;
}

/** Every background job definition of every capability; a kind defined twice is a programming error. */
// biome-ignore lint/suspicious/noExplicitAny: definitions of different payload types run side by side.
export function jobsOf(c: Container, caps: Capabilities): JobDefinition<any>[] {
  const all = wiring(caps).flatMap((cap) => cap.jobs?.(useCasesOf(c, cap)) ?? []);
  const kinds = new Set<string>();
  for (const d of all) {
    if (kinds.has(d.kind)) throw new Error(`Two job definitions of kind ${d.kind}`);
    kinds.add(d.kind);
  }
  return all;
}

/**
 * Every capability's retention tasks over the container's ports, and the shared rate-limit windows where they are
 * rows in the database (docs/architecture.md, "Retention").
 */
export function retentionOf(c: Container, caps: Capabilities): RetentionTask[] {
  const ports = resolve(c, T.Ports);
  const tasks = wiring(caps).flatMap((cap) => cap.retention?.(ports) ?? []);
  const rateLimits = resolve(c, T.RateLimits);
  if (rateLimits.pruneExpired)
    tasks.push({ kind: 'rateLimits', prune: (before, limit) => rateLimits.pruneExpired!(before.getTime(), limit) });
  return tasks;
}

/** Every capability's offer of each hook over the container's use cases, run one after another in the list's order. */
export function hooksOf(c: Container, caps: Capabilities): UseCaseHooks {
  const offers = wiring(caps).map((cap) => cap.hooks?.(useCasesOf(c, cap)) ?? {});
  return {
    refusedKeys: async (r) => {
      for (const o of offers) await o.refusedKeys?.(r);
    },
    startNotes: () => offers.flatMap((o) => o.startNotes?.() ?? []),
    close: () => {
      for (const o of offers) o.close?.();
    },
    rewrap: async () => {
      const done: Rewrapped[] = [];
      for (const o of offers) done.push(...((await o.rewrap?.()) ?? []));
      return done;
    },
  };
}

/** Every capability's reactions to committed events (run by the outbox dispatcher). */
export function reactionsOf(c: Container, caps: Capabilities): EventReaction[] {
  return wiring(caps).flatMap((cap) => cap.reactions?.(useCasesOf(c, cap)) ?? []);
}

/** A capability's operator command, run over the use cases of the container it is given. */
export interface CapabilityCommand {
  usage: string;
  run(c: Container, io: CommandIo): Promise<void>;
}

/** Every capability's operator commands by their words, in the list's order; words taken twice fail. */
export function commandsOf(caps: Capabilities): Record<string, CapabilityCommand> {
  const all: Record<string, CapabilityCommand> = {};
  for (const cap of wiring(caps))
    for (const [words, command] of Object.entries(cap.commands ?? {})) {
      if (all[words]) throw new Error(`Two operator commands "${words}"`);
      all[words] = { usage: command.usage, run: (c, io) => command.run(() => useCasesOf(c, cap), io) };
    }
  return all;
}
