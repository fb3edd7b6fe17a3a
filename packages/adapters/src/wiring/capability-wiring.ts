import type { Container, ContainerModule } from 'inversify';
import type { CapabilityStorage } from '../storage/capability-storage.js';
import type { Declarations } from './declarations.js';
import { provide, resolve, token, type Token } from './provide.js';

/**
 * What the container needs of a capability: its storage and its use-case factory (routes and jobs live in apps).
 * The factory names the ports it needs (`P`, for example `LearnerPorts`); the container hands every capability the
 * same `Ports` over all repositories, and `buildContainer` takes only capabilities whose `P` those ports satisfy.
 */
export interface CapabilityWiring<U = unknown, P = never> {
  name: string;
  storage: CapabilityStorage<object>;
  /** Its scopes, id prefixes and events: the container derives the access policy and event names from them. */
  declares?: Declarations;
  /** A function property, not a method, so that a list typed with the ports it gets is checked strictly. */
  useCases: (ports: P) => U;
}

const tokens = new Map<string, Token<unknown>>();

/** The token of a capability's use cases: one per capability name. */
export function useCasesToken<U>(cap: Pick<CapabilityWiring<U>, 'name'>): Token<U> {
  let t = tokens.get(cap.name);
  if (!t) tokens.set(cap.name, (t = token<unknown>(`${cap.name}.useCases`)));
  return t as Token<U>;
}

/** Binds each capability's use cases, built once from the shared ports (`ports`), which satisfy every one. */
export function bindCapabilities<P>(
  bind: Parameters<ConstructorParameters<typeof ContainerModule>[0]>[0]['bind'],
  caps: readonly CapabilityWiring<unknown, P>[],
  ports: Token<P>,
): void {
  for (const cap of caps) provide(bind, useCasesToken(cap), (p) => cap.useCases(p), [ports]);
}

/**
 * Names a capability and, for the compiler only, the type of its use cases: what `useCasesOf` needs of a capability
 * made per configuration (apps type it from their capability list).
 */
export interface CapabilityHandle<U> {
  name: string;
  readonly useCasesType?: U;
}

/** A capability's use cases from the container (pass the capability, or its handle). */
export function useCasesOf<U>(c: Container, cap: CapabilityHandle<U> | CapabilityWiring<U>): U {
  return resolve(c, useCasesToken(cap));
}
