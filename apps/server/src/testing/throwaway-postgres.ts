import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Debian's Postgres server programs (`/usr/lib/postgresql/<version>/bin`), the newest version; null when absent. */
export function postgresBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter(
      (v) =>
        /^\d+$/.test(v) && existsSync(join(root, v, 'bin', 'initdb')) && existsSync(join(root, v, 'bin', 'pg_ctl')),
    )
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : null;
}

/**
 * Whether a throw-away cluster can be made here. Absent programs are a skip with a notice, except under CI=true,
 * where they are an error.
 */
export function throwawayPostgresAvailable(): boolean {
  const missing = postgresBinDir() === null ? 'initdb and pg_ctl (the Debian postgresql packages)' : null;
  if (!missing) return true;
  if (process.env.CI === 'true') throw new Error(`CI=true but ${missing} are missing`);
  process.stderr.write(`\n[notice] ${missing} are missing: the database restart test is SKIPPED\n`);
  return false;
}

export interface ThrowawayPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust authentication). */
  url: string;
  port: number;
  /** `pg_ctl restart -m fast`; resolves when the server accepts connections again, with how long that took. */
  restart(): Promise<number>;
  /** Stops the server at once and removes its folder. */
  destroy(): void;
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok));
  const { port } = s.address() as AddressInfo;
  await new Promise((ok) => s.close(ok));
  return port;
}

/**
 * A Postgres cluster of a test's own: initdb into a new temporary folder, its own free port on 127.0.0.1 and its
 * socket in that folder, so it shares nothing with the machine's server. initdb and the server refuse to run as
 * root: as root they run as the `postgres` OS user (`runuser`), the folder owned by that user. fsync is off (a
 * restart, fast or not, loses nothing the operating system has; only a crash of the machine would).
 */
export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('initdb and pg_ctl are missing');
  const root = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'fundi-pg-'));
  if (root) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const command = (program: string, args: string[]): [string, string[]] =>
    root ? ['runuser', ['-u', 'postgres', '--', join(bin, program), ...args]] : [join(bin, program), args];
  const run = (program: string, args: string[]) => execFileSync(...command(program, args), { cwd: dir, stdio: 'pipe' });
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const port = await freePort();
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c fsync=off`;
  run('pg_ctl', ['-D', data, '-l', log, '-o', options, '-w', '-t', '60', 'start']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async restart() {
      const started = performance.now();
      // The options come from the last start (postmaster.opts); the test's own requests go on meanwhile.
      await promisify(execFile)(
        ...command('pg_ctl', ['-D', data, '-l', log, '-m', 'fast', '-w', '-t', '60', 'restart']),
        {
          cwd: dir,
        },
      );
      return Math.round(performance.now() - started);
    },
    destroy() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // Not running.
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
