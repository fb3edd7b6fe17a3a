import type { TenantRepos } from '@fundi/domain';
import type { LearnerRepos } from '@fundi/domain/learners';
import type { StaffRepos } from '@fundi/domain/staff';
import { ACTOR_FIELDS, actorRef, actorTypeOf, type ActorRef, type SystemActor, type WithActors } from './actor.js';

const FIELDS: ReadonlySet<string> = new Set(ACTOR_FIELDS);
/** Views are shallow; a bound on the walk keeps a malformed value from costing more than a real one. */
const MAX_DEPTH = 6;

type Plain = Record<string, unknown>;
const isPlain = (v: unknown): v is Plain => {
  if (typeof v !== 'object' || v === null) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/**
 * Turns the actor ids a view holds (`recordedBy`, `reviewedBy`, ...) into `{type, id, name}` (docs/api.md,
 * "Who did it"), with one read of the keys named and one of the staff users named (by their ids), whatever the
 * number of items.
 */
export class DescribeActors {
  constructor(
    private readonly d: {
      repos: Pick<TenantRepos, 'apiKeys'> & Pick<StaffRepos, 'staffCredentials'> & Pick<LearnerRepos, 'learners'>;
      /** The service's own actors, named as declared (`systemActorsOf`); the kernel's when not given. */
      system?: ReadonlyMap<string, SystemActor>;
    },
  ) {}

  /** The references of these ids of one tenant; ids of another tenant or deleted ones keep a null name. */
  async describe(tenantId: string, ids: Iterable<string>): Promise<Map<string, ActorRef>> {
    const out = new Map<string, ActorRef>();
    const keys: string[] = [];
    const users: string[] = [];
    const learners: string[] = [];
    for (const id of new Set(ids)) {
      const type = actorTypeOf(id);
      if (type === 'system') out.set(id, actorRef(id, null, this.d.system));
      else (type === 'user' ? users : type === 'learner' ? learners : keys).push(id);
    }
    const [keyRows, userRows, learnerRows] = await Promise.all([
      keys.length > 0 ? this.d.repos.apiKeys.findByIds(tenantId, keys) : [],
      users.length > 0 ? this.d.repos.staffCredentials.findByIds(tenantId, users) : [],
      learners.length > 0 ? this.d.repos.learners.findByIds(tenantId, learners) : [],
    ]);
    const names = new Map<string, string>();
    for (const r of [...keyRows, ...userRows]) names.set(r.id, r.name);
    // An erased learner has no name any more: null, like a deleted key.
    for (const l of learnerRows) names.set(l.id, `${l.firstName} ${l.lastName}`);
    for (const id of [...keys, ...users, ...learners]) out.set(id, actorRef(id, names.get(id) ?? null));
    return out;
  }

  /** A copy of `value` (a view, a list of them or a page) with every actor id replaced by its reference. */
  async expand<T>(tenantId: string, value: T): Promise<WithActors<T>> {
    const ids = new Set<string>();
    collect(value, ids, 0);
    if (ids.size === 0) return value as WithActors<T>;
    const refs = await this.describe(tenantId, ids);
    return replace(value, refs, 0) as WithActors<T>;
  }
}

function collect(v: unknown, ids: Set<string>, depth: number): void {
  if (depth > MAX_DEPTH) return;
  if (Array.isArray(v)) for (const x of v) collect(x, ids, depth + 1);
  else if (isPlain(v))
    for (const [k, x] of Object.entries(v)) {
      if (FIELDS.has(k) && typeof x === 'string') ids.add(x);
      else collect(x, ids, depth + 1);
    }
}

function replace(v: unknown, refs: Map<string, ActorRef>, depth: number): unknown {
  if (depth > MAX_DEPTH) return v;
  if (Array.isArray(v)) return v.map((x) => replace(x, refs, depth + 1));
  if (!isPlain(v)) return v;
  const out: Plain = {};
  for (const [k, x] of Object.entries(v))
    out[k] = FIELDS.has(k) && typeof x === 'string' ? (refs.get(x) ?? actorRef(x)) : replace(x, refs, depth + 1);
  return out;
}
