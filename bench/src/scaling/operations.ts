import autocannon from 'autocannon';
import { learnerInput } from '../fixtures.js';
import { minimumCost, tableRows, topStatements, type Cost } from './measure.js';
import type { Rig } from './rig.js';
import { call, count, learnersCsv, until, uploadImport } from './world.js';

/** How many of each operation one run measures, and how many runs (the minimum of each figure is kept). */
const N = {
  get: Number(process.env.BENCH_SCALING_GETS ?? 3000),
  list: Number(process.env.BENCH_SCALING_LISTS ?? 500),
  create: Number(process.env.BENCH_SCALING_CREATES ?? 1000),
  importRows: Number(process.env.BENCH_SCALING_IMPORT_ROWS ?? 3000),
  emails: Number(process.env.BENCH_SCALING_EMAILS ?? 500),
};
export const RUNS = Number(process.env.BENCH_SCALING_RUNS ?? 3);

export interface OperationCost {
  name: string;
  /** What one unit is (a request, a delivered event, an imported row, a sent email). */
  unit: string;
  units: number;
  cost: Cost;
  note?: string;
}

/** `amount` requests over 10 connections (a cost measurement: no saturation needed). */
async function requests(
  url: string,
  key: string,
  amount: number,
  o: { method?: 'GET' | 'POST'; body?: () => string } = {},
): Promise<number> {
  const r = await autocannon({
    url,
    method: o.method ?? 'GET',
    connections: 10,
    amount,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    ...(o.body ? { requests: [{ setupRequest: (req: autocannon.Request) => ({ ...req, body: o.body!() }) }] } : {}),
  });
  return r.non2xx + r.errors;
}

/** How long after a phase its table statistics are read (first run only): see `tableRows`. */
const STATS_WAIT_MS = Number(process.env.BENCH_SCALING_STATS_WAIT_MS ?? 11_000);
let settle = false;
/** Whether unmeasured writes happened since the statistics were last read after a wait. */
let unsettled = true;
const pause = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

async function measured(rig: Rig, work: () => Promise<void>): Promise<Cost> {
  if (settle && unsettled) await pause(STATS_WAIT_MS);
  unsettled = false;
  const stats = settle && rig.statementStats;
  if (stats) await rig.admin.query('SELECT pg_stat_statements_reset()');
  const a = await rig.meter.snapshot();
  if (settle) a.tables = await tableRows(rig.probe);
  await work();
  const b = await rig.meter.snapshot();
  const top = stats ? await topStatements(rig.admin, rig.place.database) : undefined;
  if (settle) {
    await pause(STATS_WAIT_MS);
    b.tables = await tableRows(rig.probe);
  }
  const cost = await rig.meter.cost(a, b);
  return top ? { ...cost, top } : cost;
}

let nextLearner = 4_000_000;

/** Runs every operation RUNS times and keeps each figure's minimum. */
export async function measureOperations(rig: Rig): Promise<OperationCost[]> {
  const { api, worker, key, probe } = rig;
  const runs: Record<string, Cost[]> = {};
  const keep = (name: string, c: Cost) => (runs[name] ??= []).push(c);
  const pendingOutbox = () => count(probe, 'SELECT count(*) AS n FROM outbox_pending');
  const idle = async () => {
    // Nothing queued or running before a phase starts, so it measures its own work only.
    await until('the outbox to drain', async () => (await pendingOutbox()) === 0);
    await until(
      'the jobs to finish',
      async () =>
        (await count(probe, 'SELECT count(*) AS n FROM jobs WHERE done_at IS NULL AND due_at <= $1', [
          new Date().toISOString(),
        ])) === 0,
    );
  };
  await new Promise((ok) => setTimeout(ok, 2000));
  const seedIds: string[] = [];
  for (let i = 0; i < 200; i++)
    seedIds.push(
      (await call<{ id: string }>(api.url, key, 'POST', '/api/v1/learners', learnerInput(nextLearner++))).id,
    );
  // One subscriber, listening to learner.created only while deliveries are measured (its deliveries are kept for the
  // sizes, which deleting it would remove).
  const sub = await call<{ id: string }>(api.url, key, 'POST', '/api/v1/webhook-subscriptions', {
    url: rig.receiver.url,
    events: ['learner.updated'],
  });
  await idle();
  const one = seedIds[100]!;
  // A programme of 30 modules with the seeded learners enrolled, for the assessments.
  const modules = Array.from({ length: 30 }, (_, i) => `M${String(i + 1).padStart(2, '0')}`);
  await call(api.url, key, 'POST', '/api/v1/programmes', {
    code: 'OPS-30',
    name: 'Operations programme',
    type: 'occupational_qualification',
    nqfLevel: 5,
    modules: modules.map((code, i) => ({
      code,
      name: `Module ${code}`,
      kind: ['knowledge', 'practical', 'workplace'][i % 3],
      credits: 12,
    })),
  });
  for (const learnerId of seedIds)
    await call(api.url, key, 'POST', '/api/v1/enrolments', {
      learnerId,
      programmeCode: 'OPS-30',
      startDate: '2025-01-06',
    });
  let assessed = 0;
  const assessment = () => {
    const n = assessed++;
    return JSON.stringify({
      learnerId: seedIds[n % seedIds.length],
      moduleCode: modules[Math.floor(n / seedIds.length) % modules.length],
      assessmentType: n % 3 ? 'summative' : 'formative',
      outcome: n % 5 ? 'C' : 'NYC',
      assessmentDate: '2025-06-02',
    });
  };
  let failures = 0;
  const creates = (n: number) =>
    requests(`${api.url}/api/v1/learners`, key, n, {
      method: 'POST',
      body: () => JSON.stringify(learnerInput(nextLearner++)),
    });
  for (let run = 0; run < RUNS; run++) {
    process.stderr.write(`scaling: operations, run ${run + 1} of ${RUNS}\n`);
    // The first run also reads the rows written by table, which needs a wait after each phase.
    settle = run === 0;
    await idle();
    keep('idle', await measured(rig, () => new Promise((ok) => setTimeout(ok, 3000))));

    worker.pause();
    try {
      keep(
        'get',
        await measured(
          rig,
          async () => void (failures += await requests(`${api.url}/api/v1/learners/${one}`, key, N.get)),
        ),
      );
      keep(
        'list',
        await measured(
          rig,
          async () => void (failures += await requests(`${api.url}/api/v1/learners?limit=100`, key, N.list)),
        ),
      );
      keep('create', await measured(rig, async () => void (failures += await creates(N.create))));
    } catch (e) {
      worker.resume();
      throw e;
    }
    // The creates' events, fanned out to no subscriber: the worker resumes once the phase has begun.
    keep(
      'fanout',
      await measured(rig, async () => {
        worker.resume();
        await until('the fan-out', async () => (await pendingOutbox()) === 0);
      }),
    );

    // An assessment recorded (worker paused; its event is fanned out afterwards, unmeasured).
    worker.pause();
    try {
      keep(
        'assessment',
        await measured(rig, async () => {
          failures += await requests(`${api.url}/api/v1/assessments`, key, N.create, {
            method: 'POST',
            body: assessment,
          });
        }),
      );
    } finally {
      worker.resume();
    }
    unsettled = true;
    await idle();

    // The same events with one subscriber: fan-out, signed POST, delivery and attempt rows.
    await call(api.url, key, 'PATCH', `/api/v1/webhook-subscriptions/${sub.id}`, { events: ['learner.created'] });
    await idle();
    const before = rig.receiver.total();
    worker.pause();
    try {
      failures += await creates(N.create);
      unsettled = true;
    } catch (e) {
      worker.resume();
      throw e;
    }
    keep(
      'delivery',
      await measured(rig, async () => {
        worker.resume();
        await until('the deliveries', async () => rig.receiver.total() - before >= N.create);
        await until(
          'the delivery outcomes',
          async () =>
            (await pendingOutbox()) === 0 &&
            (await count(probe, `SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pending'`)) === 0,
        );
      }),
    );
    await call(api.url, key, 'PATCH', `/api/v1/webhook-subscriptions/${sub.id}`, { events: ['learner.updated'] });
    unsettled = true;
    await idle();

    // An import of learners (validated and written in one go), with its events' fan-out.
    keep(
      'import',
      await measured(rig, async () => {
        const id = await uploadImport(api.url, key, learnersCsv(nextLearner, N.importRows));
        nextLearner += N.importRows;
        await until(
          'the import',
          async () =>
            ['completed', 'failed'].includes(
              (await call<{ status: string }>(api.url, key, 'GET', `/api/v1/imports/${id}`)).status,
            ),
          300_000,
        );
        await until('its fan-out', async () => (await pendingOutbox()) === 0);
      }),
    );
    await idle();

    // Emails: queued through the API (worker paused), then sent by the worker to the SMTP sink.
    const ids = (
      await probe.query<{ id: string }>('SELECT id FROM learners ORDER BY id DESC LIMIT $1 OFFSET $2', [
        N.emails,
        run * N.emails,
      ])
    ).rows.map((r) => r.id);
    const mailBefore = rig.smtp.count;
    worker.pause();
    try {
      keep(
        'emailQueue',
        await measured(rig, async () => {
          for (let i = 0; i < ids.length; i += 1000)
            await call(api.url, key, 'POST', '/api/v1/notifications/bulk', {
              recipientIds: ids.slice(i, i + 1000),
              channel: 'email',
              template: 'evidence_approved',
              variables: { 'evidence.type': 'logbook', 'module.name': 'Module 2: Workplace safety' },
            });
        }),
      );
    } catch (e) {
      worker.resume();
      throw e;
    }
    keep(
      'emailSend',
      await measured(rig, async () => {
        worker.resume();
        await until('the emails', async () => rig.smtp.count - mailBefore >= ids.length);
        await until(
          'the notifications marked sent',
          async () => (await count(probe, `SELECT count(*) AS n FROM notifications WHERE status = 'queued'`)) === 0,
        );
        await idle();
      }),
    );
  }
  if (failures) throw new Error(`${failures} requests failed during the measurement`);
  const m = (k: string) => minimumCost(runs[k]!);
  return [
    { name: 'idle (both processes, per second)', unit: 'second', units: 3, cost: m('idle') },
    { name: 'GET learner by id', unit: 'request', units: N.get, cost: m('get') },
    { name: 'list 100 learners', unit: 'request', units: N.list, cost: m('list') },
    { name: 'create learner (API part)', unit: 'request', units: N.create, cost: m('create') },
    { name: 'record assessment (API part)', unit: 'request', units: N.create, cost: m('assessment') },
    { name: "its event's fan-out, no subscriber (worker)", unit: 'event', units: N.create, cost: m('fanout') },
    { name: 'webhook delivery, one subscriber (worker)', unit: 'delivery', units: N.create, cost: m('delivery') },
    {
      name: 'import row, learners (upload + worker, with fan-out)',
      unit: 'row',
      units: N.importRows,
      cost: m('import'),
      note: 'every 50th row invalid',
    },
    { name: 'email notification: bulk request (API part)', unit: 'email', units: N.emails, cost: m('emailQueue') },
    { name: 'email notification: send (worker)', unit: 'email', units: N.emails, cost: m('emailSend') },
  ];
}
