import type { StaffRepos, TenantRepos } from '@fundi/domain';
import { ACTOR_FIELDS, actorRef, actorTypeOf, type ActorRef, type WithActors } from './actor.js';

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
 * "Who did it"), with one read of the tenant's keys and one per staff user named, whatever the number of items.
 */
export class DescribeActors {
  constructor(private readonly d: { repos: Pick<TenantRepos, 'apiKeys'> & Pick<StaffRepos, 'staffCredentials'> }) {}

  /** The references of these ids of one tenant; ids of another tenant or deleted ones keep a null name. */
  async describe(tenantId: string, ids: Iterable<string>): Promise<Map<string, ActorRef>> {
    const out = new Map<string, ActorRef>();
    const users: string[] = [];
    let keys = false;
    const unique = new Set(ids);
    for (const id of unique) {
      const type = actorTypeOf(id);
      if (type === 'system') out.set(id, actorRef(id));
      else if (type === 'user') users.push(id);
      else keys = true;
    }
    if (keys) {
      const names = new Map((await this.d.repos.apiKeys.listByTenant(tenantId)).map((k) => [k.id, k.name]));
      for (const id of unique) if (actorTypeOf(id) === 'api_key') out.set(id, actorRef(id, names.get(id) ?? null));
    }
    for (const id of users) {
      const u = await this.d.repos.staffCredentials.findById(tenantId, id);
      out.set(id, actorRef(id, u?.name ?? null));
    }
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
