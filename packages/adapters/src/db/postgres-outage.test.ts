import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTcpFaultProxy, type TcpFaultProxy } from '../testing/tcp-fault-proxy.js';
import { openTestStorage, POSTGRES_TEST_URL, postgresAvailable, type TestStorage } from '../testing/test-databases.js';
import { until } from '../testing/worker-processes.js';
import { PostgresDb } from './postgres-db.js';

const pgUp = await postgresAvailable();

/** One statement on a connection of the test's own, straight to the server (not through the proxy). */
async function admin<T extends pg.QueryResultRow>(sql: string, values: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: POSTGRES_TEST_URL, user: 'postgres' });
  await c.connect();
  try {
    return (await c.query<T>(sql, values)).rows;
  } finally {
    await c.end();
  }
}

const unavailable = { kind: 'unavailable', code: 'storage_unavailable' };
const outcomeUnknown = { kind: 'unavailable', code: 'storage_outcome_unknown', meta: { outcome: 'unknown' } };
const pause = (ms: number) => new Promise((ok) => setTimeout(ok, ms));
/** What `p` rejects with (null when it resolves), handled from the start: it may fail before the test looks. */
const failureOf = (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    () => null,
    (e: unknown) => e,
  );

/**
 * PostgresDb when its connections are ended under it (pg_terminate_backend: 57P01, as a fast restart does), cut,
 * refused or left unanswered. Every connection of the pool runs through a proxy of the test's own, so only those
 * backends are ever ended; the shared server keeps running.
 */
(pgUp ? describe : describe.skip)('PostgresDb when the database goes away [postgres]', () => {
  let s: TestStorage<object>;
  let proxy: TcpFaultProxy;
  let db: PostgresDb;
  beforeAll(async () => {
    s = await openTestStorage('postgres', []);
    const target = new URL(POSTGRES_TEST_URL);
    proxy = await startTcpFaultProxy({ host: target.hostname, port: Number(target.port || 5432) });
    target.hostname = '127.0.0.1';
    target.port = String(proxy.port);
    const schema = (s.target as { searchPath: string }).searchPath;
    db = PostgresDb.connect(target.toString(), { max: 3, searchPath: schema, connectTimeoutMs: 500 });
    await db.run('CREATE TABLE t_outage (id text PRIMARY KEY)');
    // Sleeps at COMMIT, so a test can end the connection while the COMMIT is on its way.
    await db.run(`CREATE FUNCTION slow_commit() RETURNS trigger LANGUAGE plpgsql AS
      $$ BEGIN IF NEW.id LIKE 'slow%' THEN PERFORM pg_sleep(3); END IF; RETURN NULL; END $$`);
    await db.run(`CREATE CONSTRAINT TRIGGER t_outage_slow AFTER INSERT ON t_outage DEFERRABLE INITIALLY DEFERRED
      FOR EACH ROW EXECUTE FUNCTION slow_commit()`);
  });
  afterEach(async () => {
    await proxy.resume();
  });
  afterAll(async () => {
    await db?.close();
    await proxy?.close();
    await s?.close();
  });

  /** Ends the backends behind the proxy that run a statement starting with `query` (every one when absent). */
  async function endBackends(query?: string): Promise<number> {
    const ports = proxy.upstreamPorts();
    const rows = await admin<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE client_addr = '127.0.0.1' AND client_port = ANY($1::int[])
       AND ($2::text IS NULL OR (state = 'active' AND query LIKE $2 || '%'))`,
      [ports, query ?? null],
    );
    for (const r of rows) await admin('SELECT pg_terminate_backend($1)', [r.pid]);
    return rows.length;
  }

  async function activeBehindProxy(query: string): Promise<boolean> {
    const rows = await admin<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE client_addr = '127.0.0.1'
       AND client_port = ANY($1::int[]) AND state = 'active' AND query LIKE $2 || '%'`,
      [proxy.upstreamPorts(), query],
    );
    return (rows[0]?.n ?? 0) > 0;
  }

  const rows = async () => (await db.all<{ id: string }>('SELECT id FROM t_outage ORDER BY id')).map((r) => r.id);

  it('a transaction whose connection is ended between statements fails alone; the process lives on', async () => {
    let pid = 0;
    const attempt = failureOf(
      db.transaction(async (tx) => {
        await tx.run('INSERT INTO t_outage (id) VALUES (?)', ['between']);
        pid = (await tx.first<{ pid: number }>('SELECT pg_backend_pid() AS pid'))!.pid;
        await admin('SELECT pg_terminate_backend($1)', [pid]);
        // The server's FATAL message and the closed socket reach the client while no query of it runs: the 'error'
        // event that ended processes when nobody listened.
        await pause(300);
        await tx.run('INSERT INTO t_outage (id) VALUES (?)', ['between-2']);
      }),
    );
    expect(await attempt).toMatchObject(unavailable);
    expect(await rows()).not.toContain('between');
    // The next transaction runs on another connection: the failed one was not given back to the pool.
    const next = await db.transaction(
      async (tx) => (await tx.first<{ pid: number }>('SELECT pg_backend_pid() AS pid'))!,
    );
    expect(next.pid).not.toBe(pid);
  });

  it('a statement in flight in a transaction fails with storage_unavailable; nothing of it is committed', async () => {
    const attempt = failureOf(
      db.transaction(async (tx) => {
        await tx.run('INSERT INTO t_outage (id) VALUES (?)', ['in-flight']);
        await tx.first('SELECT pg_sleep(5)');
      }),
    );
    await until(() => activeBehindProxy('SELECT pg_sleep'), 3000, 'the sleeping statement');
    expect(await endBackends('SELECT pg_sleep')).toBe(1);
    expect(await attempt).toMatchObject(unavailable);
    expect(await rows()).not.toContain('in-flight');
  });

  it('a COMMIT lost on its way is storage_outcome_unknown', async () => {
    const attempt = failureOf(
      db.transaction(async (tx) => {
        await tx.run('INSERT INTO t_outage (id) VALUES (?)', ['slow-commit']);
      }),
    );
    await until(() => activeBehindProxy('COMMIT'), 3000, 'the COMMIT to be under way');
    expect(await endBackends('COMMIT')).toBe(1);
    const e = await attempt;
    expect(e).toMatchObject(outcomeUnknown);
    expect((e as Error).message).toMatch(/may or may not have been saved/);
    // Ended inside the COMMIT's trigger, before its commit record: here it was not saved.
    expect(await rows()).not.toContain('slow-commit');
  });

  it('a write on its own lost in flight is storage_outcome_unknown, a read storage_unavailable', async () => {
    const write = failureOf(db.run(`INSERT INTO t_outage (id) SELECT 'auto' FROM pg_sleep(5)`));
    const read = failureOf(db.first('SELECT pg_sleep(5)'));
    await until(
      async () => (await activeBehindProxy('INSERT')) && (await activeBehindProxy('SELECT pg_sleep')),
      3000,
      'both statements',
    );
    await endBackends('INSERT');
    await endBackends('SELECT pg_sleep');
    expect(await write).toMatchObject(outcomeUnknown);
    expect(await read).toMatchObject(unavailable);
  });

  it('connections refused, then back: storage_unavailable while refused, answers again after', async () => {
    await db.first('SELECT 1');
    await proxy.stop();
    // The pool's idle connections were cut with the port: let them go first, so the next one is a new connect.
    await pause(200);
    const e = await failureOf(db.first('SELECT 1'));
    expect(e).toMatchObject(unavailable);
    expect((e as Error).cause).toMatchObject({ code: 'ECONNREFUSED' });
    await proxy.resume();
    expect(await db.first<{ one: number }>('SELECT 1 AS one')).toEqual({ one: 1 });
  });

  it('a server that accepts and never answers: the connect timeout fails the operation', async () => {
    proxy.hold();
    proxy.cut();
    const started = Date.now();
    await expect(db.transaction(async (tx) => tx.first('SELECT 1'))).rejects.toMatchObject(unavailable);
    expect(Date.now() - started).toBeLessThan(3000);
    await proxy.resume();
    await db.transaction(async (tx) => tx.run('INSERT INTO t_outage (id) VALUES (?)', ['after-hold']));
    expect(await rows()).toContain('after-hold');
  });

  it('other errors stay as they are: a unique violation is no outage', async () => {
    await db.run('INSERT INTO t_outage (id) VALUES (?)', ['dup']);
    await expect(db.run('INSERT INTO t_outage (id) VALUES (?)', ['dup'])).rejects.toMatchObject({ code: '23505' });
  });
});
