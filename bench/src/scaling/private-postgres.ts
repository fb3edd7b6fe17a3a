import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { scratchDir } from '../scratch.js';
import { cpuUs } from './measure.js';

/** Debian's Postgres server programs, the newest version installed; null when absent. */
export function postgresBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const v = readdirSync(root)
    .filter((d) => /^\d+$/.test(d) && existsSync(join(root, d, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a))[0];
  return v ? join(root, v, 'bin') : null;
}

export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok));
  const { port } = s.address() as AddressInfo;
  await new Promise((ok) => s.close(ok));
  return port;
}

/** Runs a program as the `postgres` OS user when this process is root (initdb, postgres and pgbouncer refuse root). */
export function asPostgres(program: string, args: string[], cwd: string): void {
  const root = process.getuid?.() === 0;
  const [cmd, argv] = root ? ['runuser', ['-u', 'postgres', '--', program, ...args]] : [program, args];
  execFileSync(cmd, argv, { cwd, stdio: 'pipe' });
}

/** A folder the `postgres` OS user owns (when this process is root). */
export function postgresOwnedDir(prefix: string): string {
  const dir = scratchDir(prefix);
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  return dir;
}

export interface PrivatePostgres {
  port: number;
  /** The database `fundi` (schema `public`) the measured processes use. */
  url: string;
  /** The `postgres` database, for the bench's own queries (pg_stat_statements reads every database). */
  adminUrl: string;
  /** CPU time of the whole cluster so far (postmaster, every live child, and every child that has exited). */
  clusterCpuUs(): number;
  stop(): void;
}

/**
 * A Postgres cluster of the bench's own (initdb in a scratch folder, its own port on 127.0.0.1), so that nothing
 * else runs on it while the bench measures: WAL positions, statement statistics and the whole server's CPU then
 * belong to the measured processes alone. Server defaults as Debian ships them (fsync and synchronous commit on,
 * 128 MB shared buffers), plus pg_stat_statements, which needs `shared_preload_libraries` and so a server of its own.
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBin();
  if (!bin) throw new Error('initdb is missing (Debian postgresql package)');
  const dir = postgresOwnedDir('fundi-scaling-pg-');
  const data = join(dir, 'data');
  asPostgres(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C'], dir);
  const port = await freePort();
  const options = [
    `-p ${port}`,
    '-c listen_addresses=127.0.0.1',
    `-c unix_socket_directories=${dir}`,
    '-c shared_preload_libraries=pg_stat_statements',
    '-c max_connections=300',
  ].join(' ');
  asPostgres(join(bin, 'pg_ctl'), ['-D', data, '-l', join(dir, 'server.log'), '-o', options, '-w', 'start'], dir);
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query('CREATE DATABASE fundi');
  await admin.query('CREATE EXTENSION pg_stat_statements');
  await admin.end();
  const postmaster = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  return {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/fundi`,
    adminUrl,
    clusterCpuUs: () => clusterCpuUs(postmaster),
    stop() {
      try {
        asPostgres(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'], dir);
      } catch {
        // Already stopped.
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The postmaster's own and its reaped children's CPU, plus every live child's. */
function clusterCpuUs(postmaster: number): number {
  const stat = readFileSync(`/proc/${postmaster}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14-17 of stat (utime, stime, cutime, cstime) are 11-14 here: the reaped children's time is included.
  let total = (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * 10_000;
  for (const p of readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const s = readFileSync(`/proc/${p}/stat`, 'utf8');
      const g = s.slice(s.lastIndexOf(')') + 2).split(' ');
      if (Number(g[1]) === postmaster) total += cpuUs(Number(p)) ?? 0;
    } catch {
      // Gone meanwhile.
    }
  }
  return total;
}
