import { request } from 'node:http';
import { loadavg } from 'node:os';
import { load, spawnServer, withPgSchemas, type LoadResult } from './harness.js';

interface Info {
  key: string;
  cookie: string;
  learnerId: string;
  programmeId: string;
  sampleId: string;
  /** The server's own seeding time (the imports, the programmes, the sample and the admin session). */
  seedSeconds: number;
}

const PAGES = ({ learnerId, programmeId, sampleId }: Info) => [
  ['overview', '/dashboard'],
  ['learners list', '/dashboard/learners'],
  ['learners search', '/dashboard/learners?q=Last40050'],
  ['learners search, full name', '/dashboard/learners?q=last4005000+first4005000'],
  ['learners search, mobile', '/dashboard/learners?q=082+400+4567'],
  ['learners sorted by start date', '/dashboard/learners?sort=start&dir=desc'],
  ['learner record', `/dashboard/learners/${learnerId}`],
  ['learner edit form', `/dashboard/learners/${learnerId}/edit`],
  ['learner add form', '/dashboard/learners/new'],
  ['programmes', '/dashboard/programmes'],
  ['programme', `/dashboard/programmes/${programmeId}`],
  ['moderation', '/dashboard/moderation'],
  ['moderation sample', `/dashboard/moderation/${sampleId}`],
  ['QCTO01 readiness (every learner checked)', '/dashboard/readiness?type=qcto01'],
  ['QCTO02 readiness (every enrolment checked)', '/dashboard/readiness?type=qcto02'],
  ['enrolments by status', '/dashboard/enrolments?status=enrolled'],
  ['evidence queue', '/dashboard/evidence'],
  ['webhooks', '/dashboard/webhooks'],
  ['exports', '/dashboard/exports'],
  ['imports', '/dashboard/imports'],
  ['notifications', '/dashboard/notifications'],
  ['email template', '/dashboard/notifications/templates/welcome'],
  ['HR sync', '/dashboard/hr-sync'],
  ['usage', '/dashboard/usage'],
  ['API keys', '/dashboard/api-keys'],
  ['settings', '/dashboard/settings'],
];

/** How long the bench waits for one readiness count (a loaded machine has taken minutes): 30 minutes. */
const COUNT_DEADLINE_MS = 30 * 60_000;

/**
 * One request with no header or body timeout but this bench's own deadline (fetch's undici would give up after
 * 300 s without headers, which a first QCTO02 count on a loaded machine has exceeded), printing every 15 s that it
 * still waits. Answers the status and the time taken.
 */
function send(
  url: string,
  o: { method?: string; headers?: Record<string, string>; body?: string; what: string },
): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((ok, fail) => {
    const progress = setInterval(
      () =>
        process.stdout.write(
          `  ... ${o.what}: still waiting after ${Math.round((performance.now() - started) / 1000)} s\n`,
        ),
      15_000,
    );
    const deadline = setTimeout(
      () => req.destroy(new Error(`${o.what}: no answer in ${COUNT_DEADLINE_MS / 1000} s`)),
      COUNT_DEADLINE_MS,
    );
    const done = () => {
      clearInterval(progress);
      clearTimeout(deadline);
    };
    const req = request(url, { method: o.method ?? 'GET', headers: o.headers ?? {} }, (res) => {
      res.resume();
      res.once('end', () => {
        done();
        ok({ status: res.statusCode ?? 0, ms: Math.round(performance.now() - started) });
      });
      res.once('error', (e) => {
        done();
        fail(e);
      });
    });
    req.once('error', (e) => {
      done();
      fail(e);
    });
    req.end(o.body);
  });
}

/** The readiness page of one file: its status must be 200; answers its time. */
async function readinessPage(url: string, info: Info, type: string, what: string): Promise<number> {
  const page = await send(`${url}/dashboard/readiness?type=${type}`, { headers: { cookie: info.cookie }, what });
  if (page.status !== 200) throw new Error(`${what}: ${page.status}`);
  return page.ms;
}

/**
 * A readiness report is kept until the tenant changes (docs/dashboard.md, "Pages"): the pages above measure it kept.
 * This measures what a look right after a change costs: a learner's correction through the API, then the page,
 * three times per file (the time of the page alone).
 */
async function recounts(url: string, info: Info): Promise<string> {
  const parts: string[] = [];
  for (const type of ['qcto01', 'qcto02']) {
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const changed = await send(`${url}/api/v1/learners/${info.learnerId}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${info.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ department: `Dept ${type} ${i}` }),
        what: 'PATCH learner',
      });
      if (changed.status < 200 || changed.status > 299) throw new Error(`PATCH learner: ${changed.status}`);
      times.push(await readinessPage(url, info, type, `${type.toUpperCase()} counted again`));
    }
    parts.push(`${type.toUpperCase()} readiness counted again after a change: ${times.join(' / ')} ms`);
  }
  return parts.join('; ');
}

/**
 * The tenant's first readiness counts, made by the readiness pages (each answers once its count is made) before
 * anything is measured, so no page is measured behind a count the overview would begin; waited for with the
 * deadline of `send`, printing progress.
 */
async function firstCounts(db: string, url: string, info: Info): Promise<string> {
  const parts: string[] = [];
  for (const type of ['qcto01', 'qcto02']) {
    const ms = await readinessPage(url, info, type, `${db}: first ${type.toUpperCase()} count`);
    process.stdout.write(`  ${db}: first ${type.toUpperCase()} count ${ms} ms\n`);
    parts.push(`${type.toUpperCase()} ${ms} ms`);
  }
  return parts.join(', ');
}

/** The server's load average now (1, 5 and 15 minutes), for reading the wall-clock figures beside it. */
function loadAverage(): string {
  return loadavg()
    .map((x) => x.toFixed(1))
    .join(' / ');
}

const ms = (us: number | undefined) => (us === undefined ? '' : (us / 1000).toFixed(1));
const pct = (a: number, b: number) => `${((a / b) * 100).toFixed(1)}%`;

/**
 * One row of the table: wall-clock p50 / p99 (inflated by whatever else the machine runs), the server's CPU time per
 * request (user + system of its process over the measured seconds, which that load does not inflate), and both
 * against the JSON list of the same run: req/s as a share of its req/s, CPU per request as a multiple of its own.
 */
function row(name: string, r: LoadResult, api: LoadResult): string {
  const cpuTimes = r.cpuUs !== undefined && api.cpuUs ? `${(r.cpuUs / api.cpuUs).toFixed(1)}x` : '';
  const met = r.total > 0 && r.p99 < 100 && r.non2xx === 0 && r.errors === 0;
  return `| ${name} | ${r.total} | ${r.p50} | ${r.p99} | ${r.non2xx + r.errors} | ${ms(r.cpuUs)} | ${pct(r.rps, api.rps)} | ${cpuTimes} | ${met ? 'MET' : 'MISSED'} |\n`;
}

/** One connection: latency is the server's time per page (plus loopback), the figure the target is about. */
async function measure(db: 'sqlite' | 'postgres', env: Record<string, string>): Promise<void> {
  process.stdout.write(`\n${db}: seeding the tenant (10,000 learners, 20,000 enrolments, 50,000 assessments)...\n`);
  const seeding = performance.now();
  const fundi = await spawnServer<Info>('fundi-dashboard.js', { BENCH_DB: db, ...env });
  try {
    process.stdout.write(
      `${db}: seeded in ${fundi.info.seedSeconds.toFixed(1)} s (server up in ${Math.round((performance.now() - seeding) / 1000)} s), load average ${loadAverage()}; first readiness counts...\n`,
    );
    const first = await firstCounts(db, fundi.url, fundi.info);
    const api = await load({
      url: `${fundi.url}/api/v1/learners?limit=100`,
      headers: { authorization: `Bearer ${fundi.info.key}` },
      connections: 1,
      pid: fundi.pid,
    });
    process.stdout.write(
      `\n## Dashboard pages, ${db}: 10,000 learners, 20,000 enrolments, 50,000 assessments; 1 connection; load average ${loadAverage()}\n` +
        '| page | requests | p50 ms | p99 ms | non-2xx | server CPU ms/req | req/s vs JSON list | CPU vs JSON list | p99 < 100 ms |\n' +
        '|---|---|---|---|---|---|---|---|---|\n' +
        row('JSON list of 100 learners (API)', api, api),
    );
    // BENCH_PAGES (a regular expression over the page names) measures some pages only, for investigating.
    const only = process.env.BENCH_PAGES ? new RegExp(process.env.BENCH_PAGES, 'i') : null;
    for (const [name, path] of PAGES(fundi.info).filter(([n]) => !only || only.test(n!))) {
      const r = await load({
        url: fundi.url + path!,
        headers: { cookie: fundi.info.cookie },
        connections: 1,
        pid: fundi.pid,
      });
      process.stdout.write(row(`dashboard ${name}`, r, api));
    }
    process.stdout.write(
      `\n- ${db}: load average at the end ${loadAverage()}\n- ${db}: seeding ${fundi.info.seedSeconds.toFixed(1)} s\n- ${db}: first counts, ${first}\n`,
    );
    process.stdout.write(`- ${db}: ${await recounts(fundi.url, fundi.info)}\n`);
  } finally {
    await fundi.stop();
  }
}

/**
 * Every dashboard page over the bench tenant, on SQLite then Postgres, each database's figures printed as soon as
 * they are measured (docs/benchmarks.md, "Dashboard pages").
 */
export async function dashboardBench(opts: { postgres: boolean }): Promise<void> {
  // BENCH_DASHBOARD_DB (sqlite or postgres) measures one database only, for investigating.
  const only = process.env.BENCH_DASHBOARD_DB;
  if (only !== 'postgres') await measure('sqlite', {});
  if (opts.postgres && only !== 'sqlite') {
    await withPgSchemas(1, async (url, [schema]) => {
      await measure('postgres', { BENCH_PG_URL: url, BENCH_PG_SCHEMA: schema! });
    });
  }
}
