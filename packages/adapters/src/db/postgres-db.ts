import pg from 'pg';
import type { Binding, Dialect, RunResult, SqlDb } from './sql-db.js';

export const postgresDialect: Dialect = {
  name: 'postgres',
  ilike: 'ilike',
  skipLocked: 'FOR UPDATE SKIP LOCKED',
  uniqueViolation(err) {
    const e = err as { code?: string; constraint?: string };
    return e?.code === '23505' ? (e.constraint ?? '') : null;
  },
};

const placeholderCache = new Map<string, string>();

/** `?` placeholders (as knex's `toSQL()` and our hand-written SQL use them) to Postgres `$n`. */
function numbered(sql: string): string {
  let out = placeholderCache.get(sql);
  if (out === undefined) {
    let n = 0;
    out = sql.replace(/\?/g, () => `$${++n}`);
    placeholderCache.set(sql, out);
  }
  return out;
}

// Timestamps and dates are stored as ISO text; counts come back as bigint strings, which we read as numbers.
pg.types.setTypeParser(20, (v) => Number(v));

type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

class PgConnection implements SqlDb {
  readonly dialect = postgresDialect;
  constructor(protected readonly q: Queryable) {}
  async all<T>(sql: string, b: readonly Binding[] = []): Promise<T[]> {
    return (await this.q.query(numbered(sql), b as unknown[])).rows as T[];
  }
  async first<T>(sql: string, b: readonly Binding[] = []): Promise<T | undefined> {
    return (await this.q.query(numbered(sql), b as unknown[])).rows[0] as T | undefined;
  }
  async run(sql: string, b: readonly Binding[] = []): Promise<RunResult> {
    return { changes: (await this.q.query(numbered(sql), b as unknown[])).rowCount ?? 0 };
  }
  transaction<T>(work: (tx: SqlDb) => Promise<T>): Promise<T> {
    // A handle bound to a client is already inside a transaction: join it.
    return work(this);
  }
  async close(): Promise<void> {}
}

/** node-postgres pool; each transaction holds one client from BEGIN to COMMIT/ROLLBACK. */
export class PostgresDb extends PgConnection {
  constructor(private readonly pool: pg.Pool) {
    super(pool);
  }

  static connect(connectionString: string, opts: { max?: number; searchPath?: string } = {}): PostgresDb {
    const pool = new pg.Pool({
      connectionString,
      user: new URL(connectionString).username || 'postgres',
      max: opts.max ?? 10,
      ...(opts.searchPath ? { options: `-c search_path=${opts.searchPath}` } : {}),
    });
    // An idle client that errors (server restart) must not crash the process; the pool replaces it.
    pool.on('error', () => {});
    return new PostgresDb(pool);
  }

  override async transaction<T>(work: (tx: SqlDb) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(new PgConnection(client));
      await client.query('COMMIT');
      return result;
    } catch (e) {
      await client.query('ROLLBACK').catch(() => {});
      throw e;
    } finally {
      client.release();
    }
  }

  override async close(): Promise<void> {
    await this.pool.end();
  }
}
