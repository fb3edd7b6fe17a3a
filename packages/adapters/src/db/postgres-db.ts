import { isStorageUnavailable } from '@fundi/domain';
import type pg from 'pg';
import { isPostgresConnectionError, storageError } from './storage-errors.js';
import { postgresDialect } from './postgres-dialect.js';
import { copyRowsOn } from './postgres-copy.js';
import { scrubTables } from './postgres-scrub.js';
import type { Binding, RunResult, SqlDb } from './sql-db.js';
import { exec, pgDriver, rowMaker } from './postgres-statements.js';

export { postgresDialect };

type Query = (sql: string, values: readonly Binding[]) => Promise<pg.QueryResult>;
/** `SqlDb.copyRows` on a connection: on the transaction's client, or on a client of the pool for one load alone. */
type Copy = (table: string, columns: readonly string[], rows: Iterable<readonly Binding[]>) => Promise<void>;

/** Statements that only read; anything else run outside a transaction may have changed data before a loss. */
const READ_ONLY = /^\s*(\/\*.*?\*\/\s*)?select\b/is;

/** Clients of a pool that emitted 'error': their connection is gone, so they never go back to the pool. */
const failed = new WeakSet<object>();

/**
 * Every client of the pool is heard from its first moment to its last: node-postgres emits 'error' when the server
 * ends a connection between queries or during one, and an unheard 'error' event ends the process. The pool's own
 * listener is there only while a client is idle, and a message that ends a connection can arrive in the same read as
 * the one that made it ready, before its holder could add one; so this listener is added when the pool creates the
 * client ('connect' comes before the client is handed out) and stays.
 */
function hearEveryClient(pool: pg.Pool): void {
  pool.on('connect', (client) => {
    client.on('error', () => failed.add(client));
  });
  // The pool's report of an idle client's error: that client is dropped and replaced, nothing else to do.
  pool.on('error', () => {});
}

/**
 * Runs `use` on a client of the pool. A client that errored, or whose work failed for a lost connection, is destroyed
 * on release, never given back to the pool. Failing to get a client is `storage_unavailable`: nothing was sent.
 */
async function withClient<T>(
  pool: pg.Pool,
  use: (client: pg.PoolClient, broken: () => void) => Promise<T>,
): Promise<T> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (e) {
    throw storageError(e, isPostgresConnectionError);
  }
  let broken = false;
  try {
    return await use(client, () => {
      broken = true;
    });
  } catch (e) {
    if (isStorageUnavailable(e) || isPostgresConnectionError(e)) broken = true;
    throw storageError(e, isPostgresConnectionError);
  } finally {
    client.release(broken || failed.has(client));
  }
}

class PgConnection implements SqlDb {
  readonly dialect = postgresDialect;
  constructor(
    private readonly query: Query,
    private readonly copy: Copy,
  ) {}
  async all<T>(sql: string, b: readonly Binding[] = []): Promise<T[]> {
    const r = await this.query(sql, b);
    if (r.rows.length === 0) return [];
    const make = rowMaker(r.fields);
    return (r.rows as unknown[][]).map(make) as T[];
  }
  async allArrays(sql: string, b: readonly Binding[] = []): Promise<unknown[][]> {
    return (await this.query(sql, b)).rows;
  }
  async first<T>(sql: string, b: readonly Binding[] = []): Promise<T | undefined> {
    const r = await this.query(sql, b);
    const row = r.rows[0] as unknown[] | undefined;
    return row ? (rowMaker(r.fields)(row) as T) : undefined;
  }
  async run(sql: string, b: readonly Binding[] = []): Promise<RunResult> {
    return { changes: (await this.query(sql, b)).rowCount ?? 0 };
  }
  copyRows(table: string, columns: readonly string[], rows: Iterable<readonly Binding[]>): Promise<void> {
    return this.copy(table, columns, rows);
  }
  transaction<T>(work: (tx: SqlDb) => Promise<T>): Promise<T> {
    // A handle bound to a client is already inside a transaction: join it.
    return work(this);
  }
  async scrub(_tables: readonly string[]): Promise<void> {
    throw new Error('scrub runs outside transactions');
  }
  async close(): Promise<void> {}
}

/**
 * A statement inside a transaction: a lost connection is `storage_unavailable`, since the transaction can then no
 * longer commit.
 */
function inTransaction(client: pg.PoolClient): Query {
  return async (sql, values) => {
    try {
      return await exec(client, sql, values);
    } catch (e) {
      throw storageError(e, isPostgresConnectionError);
    }
  };
}

/** A bulk load inside a transaction, its errors as `inTransaction`'s. */
function copyInTransaction(client: pg.PoolClient): Copy {
  return async (table, columns, rows) => {
    try {
      await copyRowsOn(client, table, columns, rows);
    } catch (e) {
      throw storageError(e, isPostgresConnectionError);
    }
  };
}

/** A bulk load on its own (one COPY is one statement, all of it or nothing), its errors as `onItsOwn`'s. */
function copyOnItsOwn(pool: pg.Pool): Copy {
  return (table, columns, rows) =>
    withClient(pool, async (client) => {
      try {
        await copyRowsOn(client, table, columns, rows);
      } catch (e) {
        throw storageError(e, isPostgresConnectionError, true);
      }
    });
}

/**
 * A statement on its own (autocommit) on a client of the pool. Lost on its way, one that writes may have committed
 * or not: `storage_outcome_unknown`.
 */
function onItsOwn(pool: pg.Pool): Query {
  return (sql, values) =>
    withClient(pool, async (client) => {
      try {
        return await exec(client, sql, values);
      } catch (e) {
        throw storageError(e, isPostgresConnectionError, !READ_ONLY.test(sql));
      }
    });
}

/**
 * node-postgres pool; each transaction holds one client from BEGIN to COMMIT/ROLLBACK. A server that restarts or
 * goes away fails only the statements and transactions that were using it, with `DomainError.storageUnavailable`
 * (docs/architecture.md, "When the database goes away"); the pool opens new connections once it is back.
 */
export class PostgresDb extends PgConnection {
  constructor(private readonly pool: pg.Pool) {
    super(onItsOwn(pool), copyOnItsOwn(pool));
    hearEveryClient(pool);
  }

  static connect(
    connectionString: string,
    opts: { max?: number; searchPath?: string; connectTimeoutMs?: number } = {},
  ): PostgresDb {
    const pool = new (pgDriver().Pool)({
      connectionString,
      user: new URL(connectionString).username || 'postgres',
      max: opts.max ?? 10,
      // Waiting longer than this for a connection (a server that does not answer, or every client busy) fails the
      // operation as storage_unavailable: a request is not held any longer.
      connectionTimeoutMillis: opts.connectTimeoutMs ?? 10_000,
      keepAlive: true,
      ...(opts.searchPath ? { options: `-c search_path=${opts.searchPath}` } : {}),
    });
    return new PostgresDb(pool);
  }

  /**
   * BEGIN ... COMMIT on one client. A connection lost before COMMIT was sent leaves nothing committed
   * (`storage_unavailable`); one lost while COMMIT was on its way may have committed or not
   * (`storage_outcome_unknown`).
   */
  override transaction<T>(work: (tx: SqlDb) => Promise<T>): Promise<T> {
    return withClient(this.pool, async (client, broken) => {
      await client.query('BEGIN');
      let result: T;
      try {
        result = await work(new PgConnection(inTransaction(client), copyInTransaction(client)));
      } catch (e) {
        // A client that cannot even roll back is not given to anyone else.
        await client.query('ROLLBACK').catch(broken);
        throw e;
      }
      try {
        await client.query('COMMIT');
      } catch (e) {
        throw storageError(e, isPostgresConnectionError, true);
      }
      return result;
    });
  }

  /** VACUUM until no dead version of the tables' rows is left (`scrubTables`, postgres-scrub.ts). */
  override scrub(tables: readonly string[]): Promise<void> {
    return withClient(this.pool, (client) => scrubTables(client, tables));
  }

  override async close(): Promise<void> {
    await this.pool.end();
  }
}
