import type { UnitOfWork } from '@fundi/domain';

/** The rows of the in-memory store; a transaction snapshots and restores them. */
export class MemoryStore<T extends object = object> {
  constructor(public tables: T) {}

  snapshot(): T {
    return structuredClone(this.tables);
  }

  restore(t: T): void {
    this.tables = t;
  }
}

/**
 * One capability's in-memory storage: its tables, and its repositories over a store holding them and the tables it
 * reads from other parts (`Reads`, for example the platform's outbox).
 */
export interface MemoryPart<R extends object, T extends object, Reads extends object = object> {
  tables(): T;
  repositories(store: MemoryStore<T & Reads>): R;
}

type Intersect<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
type RepositoriesOf<P> = P extends readonly MemoryPart<infer R, object, never>[] ? Intersect<R> : never;
type TablesOfPart<M> = M extends MemoryPart<object, infer T, never> ? T : never;
/** The tables of every part, as one object type. */
type TablesOf<P extends readonly unknown[]> = Intersect<TablesOfPart<P[number]>> & object;

/** A store with the tables of every part, and a function that builds every part's repositories over it. */
// biome-ignore lint/suspicious/noExplicitAny: parts differ in their table types; each is checked where it is defined.
export function memoryStorage<const P extends readonly MemoryPart<object, any, any>[]>(parts: P) {
  const store = new MemoryStore<TablesOf<P>>(Object.assign({}, ...parts.map((p) => p.tables())));
  const repositories = () => Object.assign({}, ...parts.map((p) => p.repositories(store))) as RepositoriesOf<P>;
  return { store, repositories, uow: new InMemoryUnitOfWork(store, repositories) };
}

/** One transaction at a time; a failure restores the tables as they were before it began. */
export class InMemoryUnitOfWork<R> implements UnitOfWork<R> {
  private tail: Promise<unknown> = Promise.resolve();
  constructor(
    private readonly store: MemoryStore<object>,
    private readonly repositories: () => R,
  ) {}

  run<T>(work: (tx: R) => Promise<T>): Promise<T> {
    const next = this.tail.then(async () => {
      const before = this.store.snapshot();
      try {
        return await work(this.repositories());
      } catch (e) {
        this.store.restore(before);
        throw e;
      }
    });
    this.tail = next.catch(() => {});
    return next;
  }
}
