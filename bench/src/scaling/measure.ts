import { readFileSync } from 'node:fs';
import type pg from 'pg';
import { emptyCounts, minusCounts, type WireCounter, type WireCounts } from './wire-counter.js';

/**
 * A process's CPU time so far in µs (user + system from /proc/<pid>/stat, in 10 ms clock ticks): the same counters
 * `process.cpuUsage()` reads inside a Node process, readable from outside for any process (root reads the Postgres
 * backends' too). Null when the process is gone.
 */
export function cpuUs(pid: number): number | null {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10_000;
  } catch {
    return null;
  }
}

/** The processes whose cost is one role's: an app process and the Postgres backends serving its connections. */
export interface Role {
  name: string;
  pid: () => number;
  wire: WireCounter;
}

interface RoleSnapshot {
  appCpu: number;
  /** CPU so far of each backend serving the role, by backend pid. */
  backends: Map<number, number>;
  wire: WireCounts;
}

/** Rows inserted, updated and deleted so far, by table (pg_stat_user_tables of the measured schema). */
export type TableRows = Record<string, [number, number, number]>;

export interface Snapshot {
  at: number;
  tables?: TableRows;
  walLsn: string;
  clusterCpu: number | null;
  roles: Map<string, RoleSnapshot>;
}

/** What one role cost between two snapshots. */
export interface RoleCost {
  appCpuUs: number;
  backendCpuUs: number;
  wire: WireCounts;
}

export interface Cost {
  ms: number;
  walBytes: number;
  /** The whole private cluster's CPU (background writers and autovacuum included); null on a shared server. */
  clusterCpuUs: number | null;
  roles: Record<string, RoleCost>;
  /** Rows written by table, where the phase waited for the server's table statistics. */
  tables?: TableRows;
  /** The statements the phase ran most often (pg_stat_statements), where the server has it. */
  top?: TopStatement[];
}

export interface TopStatement {
  query: string;
  calls: number;
  /** Execution time in the server, all calls together. */
  totalMs: number;
}

/**
 * The statements run in `database` since the last reset, most frequent first, without the bench's own probes (its
 * counts while waiting, its table statistics).
 */
export async function topStatements(admin: pg.Client, database: string, limit = 8): Promise<TopStatement[]> {
  const r = await admin.query<{ query: string; calls: string; ms: number }>(
    `SELECT s.query, s.calls, s.total_exec_time AS ms FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
     WHERE d.datname = $1 AND s.query NOT LIKE 'SELECT count(*) AS n FROM%'
       AND s.query NOT LIKE '%pg_stat_user_tables%' AND s.query NOT LIKE '%pg_stat_statements%'
     ORDER BY s.calls DESC LIMIT $2`,
    [database, limit],
  );
  return r.rows.map((x) => ({ query: x.query, calls: Number(x.calls), totalMs: x.ms }));
}

/**
 * Reads the measured schema's table statistics. A backend reports its counts when it goes idle, at most once a
 * second, and otherwise 10 s later (PGSTAT_IDLE_INTERVAL): read them that long after the work ended.
 */
export async function tableRows(probe: pg.Client): Promise<TableRows> {
  const r = await probe.query<{ t: string; i: string; u: string; d: string }>(
    `SELECT relname AS t, n_tup_ins AS i, n_tup_upd AS u, n_tup_del AS d FROM pg_stat_user_tables
     WHERE schemaname = current_schema()`,
  );
  return Object.fromEntries(r.rows.map((x) => [x.t, [Number(x.i), Number(x.u), Number(x.d)]]));
}

/** Reads what the measurement needs, from the processes and from Postgres (`admin`: a connection not measured). */
export class Meter {
  constructor(
    private readonly admin: pg.Client,
    private readonly roles: readonly Role[],
    private readonly clusterCpu: (() => number) | null,
  ) {}

  private async backends(ports: number[]): Promise<Map<number, number>> {
    const r = await this.admin.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE client_addr = '127.0.0.1' AND client_port = ANY($1::int[])`,
      [ports],
    );
    return new Map(r.rows.map((x) => [x.pid, cpuUs(x.pid) ?? 0]));
  }

  async snapshot(): Promise<Snapshot> {
    const roles = new Map<string, RoleSnapshot>();
    for (const r of this.roles)
      roles.set(r.name, {
        appCpu: cpuUs(r.pid()) ?? 0,
        backends: await this.backends(r.wire.serverSidePorts()),
        wire: r.wire.counts(),
      });
    const wal = await this.admin.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn');
    return { at: performance.now(), walLsn: wal.rows[0]!.lsn, clusterCpu: this.clusterCpu?.() ?? null, roles };
  }

  async cost(a: Snapshot, b: Snapshot): Promise<Cost> {
    const wal = await this.admin.query<{ bytes: string }>('SELECT ($1::pg_lsn - $2::pg_lsn)::text AS bytes', [
      b.walLsn,
      a.walLsn,
    ]);
    const roles: Record<string, RoleCost> = {};
    for (const r of this.roles) {
      const x = a.roles.get(r.name)!;
      const y = b.roles.get(r.name)!;
      // A backend that began during the phase counts from zero: its whole life was spent on the phase's work.
      let backend = 0;
      for (const [pid, cpu] of y.backends) backend += cpu - (x.backends.get(pid) ?? 0);
      roles[r.name] = { appCpuUs: y.appCpu - x.appCpu, backendCpuUs: backend, wire: minusCounts(y.wire, x.wire) };
    }
    let tables: TableRows | undefined;
    if (a.tables && b.tables) {
      tables = {};
      for (const [t, [i, u, d]] of Object.entries(b.tables)) {
        const [i0, u0, d0] = a.tables[t] ?? [0, 0, 0];
        if (i - i0 || u - u0 || d - d0) tables[t] = [i - i0, u - u0, d - d0];
      }
    }
    return {
      ...(tables ? { tables } : {}),
      ms: b.at - a.at,
      walBytes: Number(wal.rows[0]!.bytes),
      clusterCpuUs: a.clusterCpu === null || b.clusterCpu === null ? null : b.clusterCpu - a.clusterCpu,
      roles,
    };
  }
}

/** The smallest of each figure over several runs of one phase: other load on the machine only ever adds. */
export function minimumCost(costs: readonly Cost[]): Cost {
  const min = (f: (c: Cost) => number) => Math.min(...costs.map(f));
  const names = Object.keys(costs[0]!.roles);
  const roles: Record<string, RoleCost> = {};
  for (const n of names) {
    // Wire counts are exact and the same in every run but for retries and polls: keep the run with fewest statements.
    const fewest = [...costs].sort((p, q) => p.roles[n]!.wire.statements - q.roles[n]!.wire.statements)[0]!;
    roles[n] = {
      appCpuUs: min((c) => c.roles[n]!.appCpuUs),
      backendCpuUs: min((c) => c.roles[n]!.backendCpuUs),
      wire: fewest.roles[n]?.wire ?? emptyCounts(),
    };
  }
  const tables = costs.find((c) => c.tables)?.tables;
  const top = costs.find((c) => c.top)?.top;
  return {
    ...(tables ? { tables } : {}),
    ...(top ? { top } : {}),
    ms: min((c) => c.ms),
    walBytes: min((c) => c.walBytes),
    clusterCpuUs: costs[0]!.clusterCpuUs === null ? null : min((c) => c.clusterCpuUs ?? 0),
    roles,
  };
}
