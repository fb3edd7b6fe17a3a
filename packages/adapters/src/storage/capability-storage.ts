import type { UnitOfWork } from '@fundi/domain';
import { InMemoryUnitOfWork, memoryStorage, type MemoryPart, type MemoryStore } from '@fundi/memory';
import type { Knex } from 'knex';
import { queryBuilder } from '../db/query-builder.js';
import type { SqlDb } from '../db/sql-db.js';
import type { Migration } from '../migrations/migration.js';
import { inRunOrder, parseMigrationName } from '../migrations/run-order.js';

/**
 * One capability's storage (docs/architecture.md, "Capabilities"): its migrations, its SQL repositories over a
 * handle (the database at large, or one open transaction), and its in-memory part. The repositories of every
 * capability, the memory tables and the migration order are derived from a list of these, never listed by hand.
 */
export interface CapabilityStorage<R extends object> {
  /**
   * This capability's migrations (`packages/adapters/src/<capability>/migrations/`), each named
   * `<capability>/<YYYYMMDDHHMM>-<what>` after the minute it was written; every capability's run together by
   * timestamp, then capability (`migrationsOf`).
   */
  migrations: readonly Migration[];
  sql(db: SqlDb, qb: Knex): R;
  // biome-ignore lint/suspicious/noExplicitAny: the part's own tables are checked where the part is defined.
  memory: MemoryPart<R, any, any>;
  /**
   * The part's tables whose rows a learner's erasure rewrites or deletes: the scrub after erasures clears their
   * old versions from the database's files (docs/architecture.md, "Erasure on disk").
   */
  erasureTables?: readonly string[];
}

type Intersect<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
/** Every repository of a list of capability storages, as one object type. */
export type RepositoriesOf<P extends readonly CapabilityStorage<object>[]> = Intersect<
  P[number] extends CapabilityStorage<infer R> ? R : never
>;

/**
 * All migrations of the parts in the order they run (`inRunOrder`: by timestamp, then capability). A malformed or
 * repeated name, two migrations of one capability in the same minute, and a part listing migrations of two
 * capabilities are programming errors, thrown at start.
 */
export function migrationsOf(parts: readonly CapabilityStorage<object>[]): Migration[] {
  for (const p of parts) {
    const owners = new Set(p.migrations.map((m) => parseMigrationName(m.name).capability));
    if (owners.size > 1) throw new Error(`One storage part lists migrations of ${[...owners].join(' and ')}`);
  }
  return inRunOrder(parts.flatMap((p) => p.migrations));
}

/** Every part's SQL repositories over one handle. */
export function sqlRepositoriesOf<const P extends readonly CapabilityStorage<object>[]>(
  parts: P,
  db: SqlDb,
): RepositoriesOf<P> {
  const qb = queryBuilder(db.dialect);
  return Object.assign({}, ...parts.map((p) => p.sql(db, qb))) as RepositoriesOf<P>;
}

/** Runs each transaction over every part's repositories bound to it. */
export class SqlUnitOfWork<R> implements UnitOfWork<R> {
  constructor(
    private readonly db: SqlDb,
    private readonly repositories: (tx: SqlDb) => R,
  ) {}
  run<T>(work: (tx: R) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(this.repositories(tx)));
  }
}

export interface OpenStorage<R> {
  repos: R;
  uow: UnitOfWork<R>;
  /** The in-memory store (memory only). */
  store?: MemoryStore<object>;
}

/** The parts' repositories and unit of work, over a SQL handle or, without one, over a fresh in-memory store. */
export function storageFor<const P extends readonly CapabilityStorage<object>[]>(
  parts: P,
  db: SqlDb | null,
): OpenStorage<RepositoriesOf<P>> {
  if (db) {
    const build = (h: SqlDb) => sqlRepositoriesOf(parts, h);
    return { repos: build(db), uow: new SqlUnitOfWork(db, build) };
  }
  const mem = memoryStorage(parts.map((p) => p.memory));
  // The parts' repositories, merged, are those of `P` (as `sqlRepositoriesOf` merges them).
  const repositories = () => mem.repositories() as RepositoriesOf<P>;
  return { repos: repositories(), uow: new InMemoryUnitOfWork(mem.store, repositories), store: mem.store };
}
