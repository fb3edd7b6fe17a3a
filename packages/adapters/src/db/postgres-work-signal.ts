import type { WorkKind, WorkSignal } from '@fundi/application';
import type pg from 'pg';
import { WORK_CHANNEL } from '../platform/migrations/202611251228-work-signal.js';
import { pgDriver } from './postgres-statements.js';

export type { WorkKind };

/** The tables migration 024 announces, by the kind of work they hold. */
const TABLES: Record<WorkKind, string> = { outbox: 'outbox_pending', jobs: 'jobs' };

export interface WorkSignalLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface PostgresWorkSignalOptions {
  /** The database, its user and schema: the same as the pool's (`PostgresDb.connect`). */
  url: string;
  searchPath?: string;
  /** Shown in `pg_stat_activity` (default `fundi-work-signal`). */
  applicationName?: string;
  /** Reconnect backoff: the first wait, doubled after each failed attempt up to the last (100 ms to 5 s). */
  firstDelayMs?: number;
  maxDelayMs?: number;
}

/**
 * The worker's work signal on Postgres (docs/architecture.md, "Background work"): each `listen` holds one
 * dedicated connection (never one of the pool's) that runs `LISTEN fundi_work` and reports the notifications of
 * its own schema, those migration 024 sends when rows are added to `outbox_pending` or `jobs`. A dropped connection
 * is opened again with backoff, and then both kinds are reported, since a notification may have been missed
 * meanwhile. Nothing here throws or leaves an 'error' event unhandled: polling finds the work whatever happens.
 */
export class PostgresWorkSignal implements WorkSignal {
  private readonly open = new Set<PgListener>();

  constructor(
    private readonly o: PostgresWorkSignalOptions,
    private readonly log: WorkSignalLogger,
  ) {}

  /** Resolves once the first connection is listening or has failed (the retries then go on in the background). */
  async listen(onWork: (what: WorkKind) => void): Promise<{ close(): Promise<void> }> {
    const listener = new PgListener(this.o, this.log, onWork);
    this.open.add(listener);
    await listener.connect();
    return {
      close: async () => {
        this.open.delete(listener);
        await listener.close();
      },
    };
  }

  /** Ends every listener still open, for good (the container closes this). */
  async close(): Promise<void> {
    const all = [...this.open];
    this.open.clear();
    await Promise.all(all.map((l) => l.close()));
  }
}

class PgListener {
  private client: pg.Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private delayMs: number;
  private closed = false;
  /** Whether a connection failed or dropped since the last one listened: once listening, both kinds are reported. */
  private retrying = false;

  constructor(
    private readonly o: PostgresWorkSignalOptions,
    private readonly log: WorkSignalLogger,
    private readonly onWork: (what: WorkKind) => void,
  ) {
    this.delayMs = o.firstDelayMs ?? 100;
  }

  async connect(): Promise<void> {
    this.timer = null;
    if (this.closed) return;
    let client: pg.Client;
    try {
      client = new (pgDriver().Client)({
        connectionString: this.o.url,
        user: new URL(this.o.url).username || 'postgres',
        application_name: this.o.applicationName ?? 'fundi-work-signal',
        keepAlive: true,
        connectionTimeoutMillis: 10_000,
        ...(this.o.searchPath ? { options: `-c search_path=${this.o.searchPath}` } : {}),
      });
    } catch (e) {
      this.log.warn({ err: e }, 'work signal not started: polling only');
      return;
    }
    this.client = client;
    let mine = new Map<string, WorkKind>();
    client.on('error', (e) => this.lost(client, e));
    client.on('end', () => this.lost(client, null));
    client.on('notification', (n) => {
      const what = n.channel === WORK_CHANNEL && client === this.client ? mine.get(n.payload ?? '') : undefined;
      if (what) this.report(what);
    });
    try {
      await client.connect();
      const { rows } = await client.query<{ schema: string | null }>('SELECT current_schema() AS schema');
      const schema = rows[0]?.schema;
      if (!schema) throw new Error('the connection has no current schema (check the search_path)');
      mine = new Map(Object.entries(TABLES).map(([what, table]) => [`${schema}.${table}`, what as WorkKind]));
      await client.query(`LISTEN ${WORK_CHANNEL}`);
    } catch (e) {
      this.lost(client, e);
      return;
    }
    if (client !== this.client) return; // closed or lost meanwhile
    this.delayMs = this.o.firstDelayMs ?? 100;
    if (this.retrying) {
      this.retrying = false;
      this.log.info({ channel: WORK_CHANNEL }, 'work signal listening again');
      this.report('outbox');
      this.report('jobs');
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }

  /** The connection failed or dropped: let it go (its 'error' listener stays) and try again after the backoff. */
  private lost(client: pg.Client, err: unknown): void {
    if (client !== this.client) return;
    this.client = null;
    client.end().catch(() => {});
    if (this.closed) return;
    // Warned once per outage; the retries are quiet until it listens again.
    if (!this.retrying)
      this.log.warn({ err, retryInMs: this.delayMs }, 'work signal connection lost: polling only until it is back');
    this.retrying = true;
    const max = this.o.maxDelayMs ?? 5000;
    this.timer = setTimeout(() => void this.connect(), this.delayMs);
    this.timer.unref();
    this.delayMs = Math.min(this.delayMs * 2, max);
  }

  private report(what: WorkKind): void {
    try {
      this.onWork(what);
    } catch (e) {
      this.log.warn({ err: e, what }, 'work signal handler failed');
    }
  }
}
