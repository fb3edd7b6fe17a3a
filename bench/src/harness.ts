import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import pg from 'pg';
import { HEAP_NODE_FLAGS } from '@fundi/server';
import { PG_URL } from './pg-url.js';

export const BENCH_DIR = dirname(fileURLToPath(import.meta.url));

export interface Spawned<I> {
  url: string;
  info: I;
  /** The server process's id (to read its memory from /proc). */
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts a bench server in its own process (so the load generator never shares its event loop). Its stdout (the
 * request logs) goes to /dev/null unless BENCH_SERVER_STDOUT names a file to append it to (with `--trace-gc` in
 * BENCH_NODE_ARGS, say); it writes one JSON line `{"port": n, ...info}` on fd 3 when it is ready.
 */
export async function spawnServer<I = Record<string, unknown>>(
  script: string,
  env: Record<string, string> = {},
): Promise<Spawned<I>> {
  // BENCH_NODE_ARGS (e.g. "--cpu-prof") profiles the servers under load. Fundi's servers start with the node flags
  // `npm start` gives it (its young generation's size, docs/architecture.md, "Memory"), before BENCH_NODE_ARGS so
  // those can change them; the bare servers with node's defaults.
  const nodeArgs = [
    ...(script.startsWith('fundi') ? HEAP_NODE_FLAGS : []),
    ...(env.BENCH_NODE_ARGS ?? process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean),
  ];
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, join(BENCH_DIR, 'servers', script)], {
    env: { ...process.env, ...env },
    stdio: [
      'ignore',
      process.env.BENCH_SERVER_STDOUT ? openSync(process.env.BENCH_SERVER_STDOUT, 'a') : 'ignore',
      'inherit',
      'pipe',
    ],
  });
  const first = await new Promise<string>((ok, fail) => {
    const rl = createInterface({ input: child.stdio[3] as NodeJS.ReadableStream });
    rl.once('line', (l) => ok(l));
    child.once('exit', (code) => fail(new Error(`${script} exited with ${code} before it was ready`)));
  });
  const { port, ...info } = JSON.parse(first) as { port: number } & I;
  return {
    url: `http://127.0.0.1:${port}`,
    info: info as I,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((ok) => {
        if (child.exitCode !== null) return ok();
        child.once('exit', () => ok());
        child.kill('SIGTERM');
      }),
  };
}

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST' | 'PATCH';
  headers?: Record<string, string>;
  /** A fixed body, or one made per request (unique data for creates). */
  body?: string | (() => string);
  /** Headers made per request, beside `headers` (a key picked per request, say); needs a body made per request. */
  headersPerRequest?: () => Record<string, string>;
  connections?: number;
  seconds?: number;
  /** The server's process id: the result then tells the server's CPU time per request. */
  pid?: number;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  total: number;
  non2xx: number;
  errors: number;
  /**
   * The server's CPU time (user + system) per request in the measured seconds, when its pid was given. On a
   * shared machine req/s swing with the other load; CPU per request moves far less.
   */
  cpuUs?: number;
}

/** A process's CPU time so far in µs (/proc/<pid>/stat, user + system, in clock ticks of 10 ms). */
function cpuTimeUs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** autocannon with the bench defaults: 50 connections, a warm-up second, then `seconds` of load. */
export async function load(o: LoadOptions): Promise<LoadResult> {
  const base = {
    url: o.url,
    method: o.method ?? 'GET',
    headers: { 'content-type': 'application/json', ...(o.headers ?? {}) },
    connections: o.connections ?? 50,
  };
  const makeBody = o.body;
  const perRequest = o.headersPerRequest;
  const requests =
    typeof makeBody === 'function'
      ? [
          {
            setupRequest: (req: autocannon.Request) => ({
              ...req,
              body: makeBody(),
              ...(perRequest ? { headers: { ...req.headers, ...perRequest() } } : {}),
            }),
          },
        ]
      : undefined;
  await autocannon({
    ...base,
    duration: 1,
    ...(typeof makeBody === 'string' ? { body: makeBody } : {}),
    ...(requests ? { requests } : {}),
  });
  const cpuBefore = o.pid ? cpuTimeUs(o.pid) : 0;
  const r = await autocannon({
    ...base,
    duration: o.seconds ?? Number(process.env.BENCH_SECONDS ?? 5),
    ...(typeof makeBody === 'string' ? { body: makeBody } : {}),
    ...(requests ? { requests } : {}),
  });
  return {
    rps: Math.round(r.requests.total / (o.seconds ?? Number(process.env.BENCH_SECONDS ?? 5))),
    p50: r.latency.p50,
    p99: r.latency.p99,
    total: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
    ...(o.pid && r.requests.total ? { cpuUs: Math.round((cpuTimeUs(o.pid) - cpuBefore) / r.requests.total) } : {}),
  };
}

/** The middle value of `xs` (the upper one of an even count). */
export const median = (xs: readonly number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * Runs each of `runs` `rounds` times, in turns whose order alternates (a, b, then b, a, ...), and answers every
 * round's result of each. On a shared machine whose load moves from minute to minute, a baseline measured in turn
 * with the figure it is compared with is fairer than one measured minutes before.
 */
export async function inTurns<K extends string, R>(
  runs: Record<K, () => Promise<R>>,
  rounds = Number(process.env.BENCH_ROUNDS ?? 3),
): Promise<Record<K, R[]>> {
  const names = Object.keys(runs) as K[];
  const seen = Object.fromEntries(names.map((n) => [n, [] as R[]])) as Record<K, R[]>;
  for (let i = 0; i < rounds; i++) for (const n of i % 2 ? [...names].reverse() : names) seen[n].push(await runs[n]());
  return seen;
}

/**
 * Runs each of `runs` (a load against one server each, all servers up at once) in turns (`inTurns`) and answers
 * each one's median round (by req/s; its CPU per request the median of its rounds). BENCH_ROUNDS sets `rounds`
 * (default 3).
 */
export async function alternating<K extends string>(
  runs: Record<K, () => Promise<LoadResult>>,
  rounds = Number(process.env.BENCH_ROUNDS ?? 3),
): Promise<Record<K, LoadResult>> {
  const seen = await inTurns(runs, rounds);
  return Object.fromEntries(
    (Object.keys(runs) as K[]).map((n) => {
      const rs = seen[n];
      const mid = rs.slice().sort((a, b) => a.rps - b.rps)[Math.floor(rs.length / 2)]!;
      const cpu = rs.flatMap((r) => (r.cpuUs === undefined ? [] : [r.cpuUs]));
      return [n, { ...mid, ...(cpu.length ? { cpuUs: median(cpu) } : {}) }];
    }),
  ) as Record<K, LoadResult>;
}

export interface Row {
  scenario: string;
  result: LoadResult;
  /** Baseline measured in the same run, and the target as a human-readable check. */
  baseline?: { name: string; rps: number; cpuUs?: number };
  target?: { text: string; met: boolean };
}

export function printRows(title: string, rows: Row[]): void {
  process.stdout.write(`\n## ${title}\n`);
  process.stdout.write(
    '| scenario | req/s | p50 ms | p99 ms | non-2xx | server CPU µs/req | baseline | ratio | CPU ratio | target |\n|---|---|---|---|---|---|---|---|---|---|\n',
  );
  for (const r of rows) {
    const b = r.baseline;
    const ratio = b ? `${((r.result.rps / b.rps) * 100).toFixed(1)}%` : '';
    // Baseline CPU per request over ours: the share of the baseline's rate we would reach if CPU were all that limits.
    const cpuRatio = b?.cpuUs && r.result.cpuUs ? `${((b.cpuUs / r.result.cpuUs) * 100).toFixed(1)}%` : '';
    process.stdout.write(
      `| ${r.scenario} | ${r.result.rps} | ${r.result.p50} | ${r.result.p99} | ${r.result.non2xx + r.result.errors} | ${r.result.cpuUs ?? ''} | ${b ? `${b.name} ${b.rps}${b.cpuUs ? ` (${b.cpuUs} µs)` : ''}` : ''} | ${ratio} | ${cpuRatio} | ${r.target ? `${r.target.met ? 'MET' : 'MISSED'}: ${r.target.text}` : ''} |\n`,
    );
  }
}

/** Absolute targets are set for a machine where bare Koa does 45,000 req/s; scale them to this run's. */
export const REFERENCE_BARE_KOA = 45_000;

export function scaledTarget(
  result: LoadResult,
  issueTarget: number,
  bareRps: number,
  share = 1,
): NonNullable<Row['target']> {
  const scaled = Math.round((issueTarget * share * Math.min(bareRps, REFERENCE_BARE_KOA)) / REFERENCE_BARE_KOA);
  return {
    text: `>= ${Math.round(issueTarget * share)} req/s at 45k bare Koa; scaled to this run: >= ${scaled}`,
    met: result.rps >= scaled,
  };
}

/** Runs `fn` with fresh Postgres schemas (`names` of them, suffixed), dropped afterwards whatever happens. */
export async function withPgSchemas<T>(names: number, fn: (url: string, schemas: string[]) => Promise<T>): Promise<T> {
  const base = `bench_${randomBytes(4).toString('hex')}`;
  const schemas = Array.from({ length: names }, (_, i) => `${base}_${i}`);
  const admin = new pg.Client({ connectionString: PG_URL, user: new URL(PG_URL).username || 'postgres' });
  await admin.connect();
  try {
    for (const s of schemas) await admin.query(`CREATE SCHEMA ${s}`);
    return await fn(PG_URL, schemas);
  } finally {
    for (const s of schemas) await admin.query(`DROP SCHEMA IF EXISTS ${s} CASCADE`);
    await admin.end();
  }
}
