import type { CapabilityStorage, CapabilityWiring } from '@fundi/adapters';
import type { RouteDef } from '@fundi/http';
import type { EventReaction, JobDefinition, RetentionTask } from '@fundi/application';

/**
 * A capability of Fundi (docs/architecture.md, "Capabilities"): its storage, its use cases built from the ports
 * it names, the HTTP routes over those use cases and the background jobs it defines. Listed once in
 * `CAPABILITIES`; the container bindings, route list, job handlers and migration order are derived from that list.
 */
export interface Capability<U, P, R extends object> extends CapabilityWiring<U> {
  storage: CapabilityStorage<R>;
  useCases(ports: P): U;
  routes?(useCases: NoInfer<U>): RouteDef[];
  // biome-ignore lint/suspicious/noExplicitAny: a capability's jobs have payloads of different types.
  jobs?(useCases: NoInfer<U>): JobDefinition<any>[];
  /** Reactions to committed events, run by the outbox dispatcher in its transaction (they queue jobs). */
  reactions?(useCases: NoInfer<U>): EventReaction[];
  /** What it prunes past retention, over the same ports as its use cases (one recurring job runs them all). */
  retention?(ports: NoInfer<P>): RetentionTask[];
}

/** Declares a capability with its use-case, ports and repository types inferred. */
export function capability<U, P, R extends object>(c: Capability<U, P, R>): Capability<U, P, R> {
  return c;
}
