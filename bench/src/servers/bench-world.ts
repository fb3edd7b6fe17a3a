import type { Server } from 'node:http';
import { join } from 'node:path';
import { T, resolve, useCasesOf, type DatabaseTarget } from '@fundi/adapters';
import { operator } from '@fundi/application';
import { containerFor, httpApp, migrateAll, tenants } from '@fundi/server';
import { PG_URL } from '../pg-url.js';
import { scratchDir } from '../scratch.js';
import { announce } from './ready.js';

/** What the Fundi bench servers set up the same way: the database, the config and a tenant without limits. */
export interface BenchOptions {
  /** The directory of the SQLite file and of the file store; a fresh scratch directory when absent. */
  dir?: string;
  /** Follow BENCH_DB: `postgres` serves from BENCH_PG_URL in schema BENCH_PG_SCHEMA; SQLite otherwise. */
  followBenchDb?: boolean;
  /** Run the migrations first (default true; false over a database an earlier process prepared). */
  migrate?: boolean;
  /** The server's API key cache (default 0: every request authenticates). */
  authCacheMs?: number;
  /** Requests a minute per address without an API key (default 100). */
  anonymousPerMinute?: number;
  /** Keep uploaded files, encrypted, on local disk under `dir` (default: in memory). */
  files?: boolean;
}

export type BenchContainer = ReturnType<typeof containerFor>;

/** BENCH_DB=postgres: the servers that follow BENCH_DB serve from Postgres. */
export const ON_POSTGRES = process.env.BENCH_DB === 'postgres';

/** The database the options choose. */
export function benchDatabase(dir: string, o: Pick<BenchOptions, 'followBenchDb'> = {}): DatabaseTarget {
  if (o.followBenchDb && process.env.BENCH_DB === 'postgres')
    return { kind: 'postgres', url: PG_URL, searchPath: process.env.BENCH_PG_SCHEMA, poolMax: 10 };
  return { kind: 'sqlite', filename: join(dir, 'fundi.sqlite') };
}

/** The file of a database the bench runs on SQLite only. */
export function sqliteFile(database: DatabaseTarget): string {
  if (database.kind !== 'sqlite') throw new Error('this bench runs on SQLite only');
  return database.filename;
}

/** The database (migrated unless told otherwise), the server's config and its container; LOG_LEVEL_BENCH sets its log level. */
export async function benchContainer(o: BenchOptions = {}) {
  const dir = o.dir ?? scratchDir('fundi-bench-');
  const database = benchDatabase(dir, o);
  if (o.migrate ?? true) await migrateAll(database);
  const config = {
    database,
    masterKey: Buffer.alloc(32, 1),
    logLevel: process.env.LOG_LEVEL_BENCH ?? 'info',
    authCacheMs: o.authCacheMs ?? 0,
    anonymousLimits: { perMinute: o.anonymousPerMinute ?? 100, perDay: null },
    trustProxy: false,
    ...(o.files ? { fileStore: { kind: 'local' as const, dir: join(dir, 'files') } } : {}),
  };
  return { dir, database, config, c: containerFor(config) };
}

/** An enterprise tenant whose per-key limits are raised so the load is counted but never refused. */
export async function benchTenant(c: BenchContainer, slug = `bench-${Date.now()}`, name = 'Bench') {
  const created = await useCasesOf(c, tenants).createTenant.execute({ slug, name, plan: 'enterprise' });
  await resolve(c, T.SqlDb).run('UPDATE tenants SET limit_overrides = ? WHERE id = ?', [
    JSON.stringify({ perMinute: 1_000_000_000, perDay: null }),
    created.tenant.id,
  ]);
  return { ...created, actor: operator(created.tenant.id) };
}

/** `benchContainer` with a `benchTenant` in it. */
export async function benchWorld(o: BenchOptions & { slug?: string; tenantName?: string } = {}) {
  const world = await benchContainer(o);
  return { ...world, tenant: await benchTenant(world.c, o.slug, o.tenantName) };
}

/** The HTTP app listening on a free port, announced to the harness with `info`. */
export function serve(
  world: { c: BenchContainer; config: Parameters<typeof httpApp>[1] },
  info: Record<string, unknown>,
): Server {
  const server = httpApp(world.c, world.config).listen(0, '127.0.0.1', () => announce(server, info));
  return server;
}
