import { load, printRows, spawnServer, withPgSchemas, type Row } from './harness.js';

interface Info {
  key: string;
  cookie: string;
  learnerId: string;
  programmeId: string;
  sampleId: string;
}

const PAGES = ({ learnerId, programmeId, sampleId }: Info) => [
  ['overview', '/dashboard'],
  ['learners list', '/dashboard/learners'],
  ['learners search', '/dashboard/learners?q=Last40050'],
  ['learners search, full name', '/dashboard/learners?q=last4005000+first4005000'],
  ['learners search, mobile', '/dashboard/learners?q=082+123+4567'],
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

const notes: string[] = [];

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
      const changed = await fetch(`${url}/api/v1/learners/${info.learnerId}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${info.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ department: `Dept ${type} ${i}` }),
      });
      if (!changed.ok) throw new Error(`PATCH learner: ${changed.status}`);
      const t = performance.now();
      const page = await fetch(`${url}/dashboard/readiness?type=${type}`, { headers: { cookie: info.cookie } });
      await page.text();
      if (!page.ok) throw new Error(`readiness ${type}: ${page.status}`);
      times.push(Math.round(performance.now() - t));
    }
    parts.push(`${type.toUpperCase()} readiness counted again after a change: ${times.join(' / ')} ms`);
  }
  return parts.join('; ');
}

async function firstCounts(url: string, info: Info): Promise<string> {
  const parts: string[] = [];
  for (const type of ['qcto01', 'qcto02']) {
    const t = performance.now();
    const page = await fetch(`${url}/dashboard/readiness?type=${type}`, { headers: { cookie: info.cookie } });
    await page.text();
    if (!page.ok) throw new Error(`readiness ${type}: ${page.status}`);
    parts.push(`${type.toUpperCase()} ${Math.round(performance.now() - t)} ms`);
  }
  return parts.join(', ');
}

/** One connection: latency is the server's time per page (plus loopback), the figure the target is about. */
async function rows(db: 'sqlite' | 'postgres', env: Record<string, string>): Promise<Row[]> {
  const fundi = await spawnServer<Info>('fundi-dashboard.js', { BENCH_DB: db, ...env });
  try {
    const api = await load({
      url: `${fundi.url}/api/v1/learners?limit=100`,
      headers: { authorization: `Bearer ${fundi.info.key}` },
      connections: 1,
    });
    const out: Row[] = [{ scenario: `${db}: JSON list of 100 learners (API)`, result: api }];
    // The tenant's first readiness counts, made by the readiness pages before anything is measured, so no page is
    // measured behind a count the overview would begin (and their time is shown).
    notes.push(`${db}: first counts, ${await firstCounts(fundi.url, fundi.info)}`);
    // BENCH_PAGES (a regular expression over the page names) measures some pages only, for investigating.
    const only = process.env.BENCH_PAGES ? new RegExp(process.env.BENCH_PAGES, 'i') : null;
    for (const [name, path] of PAGES(fundi.info).filter(([n]) => !only || only.test(n!))) {
      const r = await load({ url: fundi.url + path!, headers: { cookie: fundi.info.cookie }, connections: 1 });
      out.push({
        scenario: `${db}: dashboard ${name}`,
        result: r,
        baseline: { name: 'JSON list', rps: api.rps },
        target: {
          text: 'p99 < 100 ms (10k learners, 20k enrolments, 50k assessments)',
          met: r.total > 0 && r.p99 < 100 && r.non2xx === 0,
        },
      });
    }
    notes.push(`${db}: ${await recounts(fundi.url, fundi.info)}`);
    return out;
  } finally {
    await fundi.stop();
  }
}

export async function dashboardBench(opts: { postgres: boolean }): Promise<void> {
  // BENCH_DASHBOARD_DB (sqlite or postgres) measures one database only, for investigating.
  const only = process.env.BENCH_DASHBOARD_DB;
  const all = only === 'postgres' ? [] : await rows('sqlite', {});
  if (opts.postgres && only !== 'sqlite') {
    await withPgSchemas(1, async (url, [schema]) => {
      all.push(...(await rows('postgres', { BENCH_PG_URL: url, BENCH_PG_SCHEMA: schema! })));
    });
  }
  printRows(
    'Dashboard pages, 10,000 learners, 20,000 enrolments, 50,000 assessments in the tenant: 1 connection (latency = server time)',
    all,
  );
  for (const n of notes) process.stdout.write(`\n- ${n}\n`);
}
