import type { Role, Scope } from '@fundi/domain';
import { KERNEL_ORIGINS, type AuditOrigin, type AuditVia } from '@fundi/domain/audit';

/** Who is acting: an API key of a tenant, or the operator (CLI) / the system itself. */
export interface Actor {
  tenantId: string;
  /** API key id, or `cli` / `system`. */
  id: string;
  role: Role;
  scopes: readonly Scope[];
  /** The key's or staff user's name when known (shown in event payloads as the actor's name). */
  name?: string | null;
  /** Where the change came from, for the audit trail; unset, it follows from the id (`viaOf`). */
  via?: AuditVia;
  /** The client address of the request that acts, for the audit trail. */
  ip?: string | null;
}

/**
 * One of the service's own actors (`actorTypeOf` is `system`): its id in audit entries and views, its name as they
 * show it, and the origin of its changes. The kernel's are here; a capability that acts as its own declares it
 * (`offers.systemActor`) with its origin's place among the origins (docs/architecture.md, "A capability's anatomy").
 */
export interface SystemActor {
  id: string;
  name: string;
  origin: AuditOrigin;
}

/** The service itself (background and failure-driven changes) and the operator's command line. */
export const KERNEL_ACTORS: readonly SystemActor[] = [
  { id: 'system', name: 'Fundi', origin: kernelOrigin('worker') },
  { id: 'cli', name: 'Operator (command line)', origin: kernelOrigin('cli') },
];

/** One of the service's own origins, in the place `KERNEL_ORIGINS` gives it. */
function kernelOrigin(via: AuditVia): AuditOrigin {
  const o = KERNEL_ORIGINS.find((x) => x.via === via);
  if (!o) throw new Error(`${via} is not one of the service's own audit origins`);
  return o;
}

/** The service's own actors by id: the kernel's and those capabilities declare. */
export function systemActorsOf(declared: readonly SystemActor[]): ReadonlyMap<string, SystemActor> {
  const byId = new Map<string, SystemActor>();
  for (const a of [...KERNEL_ACTORS, ...declared]) {
    if (byId.has(a.id)) throw new Error(`The system actor ${a.id} is declared twice`);
    byId.set(a.id, a);
  }
  return byId;
}

const KERNEL_BY_ID = systemActorsOf([]);

/**
 * Where an actor's change came from: as set by whoever made the actor (an adapter, a capability's own actor), else
 * by its id (the service's own), else the API.
 */
export const viaOf = (a: Actor): AuditVia => a.via ?? KERNEL_BY_ID.get(a.id)?.origin.via ?? 'api';

/** The actor with the origin of a request (the API, the dashboard) for its audit entries. */
export const actingFrom = (a: Actor, via: AuditVia, ip: string | null): Actor => ({ ...a, via, ip });

export function operator(tenantId: string): Actor {
  return { tenantId, id: 'cli', role: 'admin', scopes: [] };
}

/** Background and failure-driven changes are made by the service itself. */
export function systemActor(tenantId: string): Actor {
  return { tenantId, id: 'system', role: 'admin', scopes: [] };
}

export const ACTOR_TYPES = ['api_key', 'user', 'learner', 'system'] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];

/**
 * Who did something, as responses and event payloads show it (docs/api.md, "Who did it"): an API key, a staff
 * user of the dashboard, a learner in the learner portal, or the service itself (`system`, the command line `cli`, a capability's own actor).
 * `name` is the key's or user's current name; null when the key or user no longer exists.
 */
export interface ActorRef {
  type: ActorType;
  id: string;
  name: string | null;
}

/**
 * The type of an actor id: key ids start `key_`, staff user ids `usr_`, learners (acting in the learner portal)
 * `lrn_`; anything else is the service.
 */
export function actorTypeOf(id: string): ActorType {
  if (id.startsWith('key_')) return 'api_key';
  if (id.startsWith('usr_')) return 'user';
  if (id.startsWith('lrn_')) return 'learner';
  return 'system';
}

/**
 * The reference of an id whose name is known, or of one of the service's own actors, named as `system` declares
 * them (the kernel's by default).
 */
export function actorRef(
  id: string,
  name: string | null = null,
  system: ReadonlyMap<string, SystemActor> = KERNEL_BY_ID,
): ActorRef {
  const type = actorTypeOf(id);
  return { type, id, name: type === 'system' ? (system.get(id)?.name ?? id) : name };
}

/** The fields of views that hold an actor id, shown as an `ActorRef` (one list for every resource). */
export const ACTOR_FIELDS = [
  'recordedBy',
  'changedBy',
  'uploadedBy',
  'reviewedBy',
  'createdBy',
  'confirmedBy',
  'moderatedBy',
  'drawnBy',
] as const;
type ActorField = (typeof ACTOR_FIELDS)[number];

/** `T` with every actor field's id replaced by its `ActorRef` (what `DescribeActors.expand` returns). */
export type WithActors<T> = T extends readonly (infer U)[]
  ? WithActors<U>[]
  : T extends object
    ? { [K in keyof T]: K extends ActorField ? (null extends T[K] ? ActorRef | null : ActorRef) : WithActors<T[K]> }
    : T;
