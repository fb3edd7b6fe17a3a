import type { CapabilityStorage, CapabilityWiring, Declarations } from '@fundi/adapters';
import type { EventDocs, registerEvents } from '@fundi/http';
import type { DashboardPages, RefusedKeys, RouteDef } from '@fundi/http';
import type { PortalPages } from '@fundi/http/portal';
import type { JobDefinition, RetentionPeriod, RetentionTask } from '@fundi/application';
import type { EventReaction } from '@fundi/application/webhooks';

/**
 * What a capability declares of itself (docs/architecture.md, "A capability's anatomy"): its scopes with the roles
 * that get each, its id prefixes, and its events with their `data` schemas. The access policy, the event names
 * subscribers may ask for and the OpenAPI `webhooks` section are derived from these, never listed by hand.
 */
export interface CapabilityDeclarations extends Declarations {
  events?: EventDocs;
  /** Further OpenAPI `webhooks` entries that are not events of the outbox (HR's outbound messages). */
  openApiWebhooks?(registry: Parameters<typeof registerEvents>[0]): void;
  /** The retention periods of the kinds of record its `retention` tasks prune: default days, the variable. */
  retention?: readonly RetentionPeriod[];
}

/**
 * What a capability may offer the service through its use cases, by the name of the need (docs/architecture.md,
 * "A capability's anatomy"): every capability's offer of a hook runs, in the list's order.
 */
export interface UseCaseHooks {
  /** One client address presented many refused API keys (the API's `onRefusedKeys`). */
  refusedKeys(r: RefusedKeys): Promise<void>;
  /** Lines the server prints for the operator once it listens (where mail goes). */
  startNotes(): string[];
  /** Releases what it holds open between requests (pooled SMTP connections) when the service stops. */
  close(): void;
  /**
   * After a master-key rotation, seals what it stores again under the current master key (`keys rewrap` of the
   * operator's CLI), and says how much.
   */
  rewrap(): Promise<Rewrapped[]>;
}

/** What one capability sealed again under the current master key: its count under `key` (JSON), and in words. */
export interface Rewrapped {
  key: string;
  count: unknown;
  said: string;
}

/** What the operator's CLI lends a capability's command (`npm run fundi -- <group> <verb>`). */
export interface CommandIo {
  /** The flags as given (`--tenant acme` is `tenant: 'acme'`). */
  flags: Readonly<Record<string, string | boolean | undefined>>;
  /** A flag's value; a missing or empty one is refused with the CLI's usage. */
  required(flag: string): string;
  /** The tenant of a slug; an unknown one is refused with the CLI's usage. */
  tenant(slug: string): Promise<{ id: string }>;
  /** Whether `--json` was given: the answer is then one JSON value. */
  json: boolean;
  out: { json(value: unknown): void; line(text: string): void };
}

/** An operator command a capability contributes, over its use cases (built only when the command runs). */
export interface OperatorCommand<U> {
  /** Its lines in the CLI's usage, indented as the others. */
  usage: string;
  run(useCases: () => U, io: CommandIo): Promise<void>;
}

/**
 * A capability of Fundi (docs/architecture.md, "Capabilities"): its storage, its use cases built from the ports
 * it names, the HTTP routes over those use cases and the background jobs it defines. Listed once in
 * `capabilities()`; the container bindings, route list, job handlers and migration order are derived from that list.
 */
export interface Capability<N extends string, U, P, R extends object, D extends object = object>
  extends CapabilityWiring<U> {
  name: N;
  storage: CapabilityStorage<R>;
  declares?: CapabilityDeclarations;
  useCases(ports: P): U;
  routes?(useCases: NoInfer<U>): RouteDef[];
  /** Its dashboard pages and navigation entries (docs/architecture.md, "A capability's anatomy"). */
  dashboard?: DashboardPages;
  /** Its pages of the learner portal and its sections of the portal's pages (docs/dashboard.md, "Learner portal"). */
  portal?: PortalPages;
  /**
   * The use cases it hands the dashboard's and the portal's pages, under the names they read them by (`DashboardDeps`
   * and `PortalHttpDeps`): the composition merges every capability's offer.
   */
  pageDeps?(useCases: NoInfer<U>): D;
  // biome-ignore lint/suspicious/noExplicitAny: a capability's jobs have payloads of different types.
  jobs?(useCases: NoInfer<U>): JobDefinition<any>[];
  /** Hooks it offers over its use cases (the notifications tell a tenant of refused keys). */
  hooks?(useCases: NoInfer<U>): Partial<UseCaseHooks>;
  /** Reactions to committed events, run by the outbox dispatcher in its transaction (they queue jobs). */
  reactions?(useCases: NoInfer<U>): EventReaction[];
  /** Its operator commands by their words (`'evidence retention'`), in the CLI's usage in the list's order. */
  commands?: Readonly<Record<string, OperatorCommand<NoInfer<U>>>>;
  /** What it prunes past retention, over the same ports as its use cases (one recurring job runs them all). */
  retention?(ports: NoInfer<P>): RetentionTask[];
}

/** Declares a capability with its name, use-case, ports and repository types inferred. */
export function capability<const N extends string, U, P, R extends object, D extends object = object>(
  c: Capability<N, U, P, R, D>,
): Capability<N, U, P, R, D> {
  return c;
}
