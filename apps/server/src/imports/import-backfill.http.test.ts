import { expect, it } from 'vitest';
import { programmeBody } from '../testing/training-fixtures.js';
import type { TestServer } from '../testing/test-server.js';
import { LEARNER_HEADER, idNumberFor, learnerLine, settled, upload } from '../testing/import-fixtures.js';
import { A, B, describeImportSuite } from './imports-http-fixture.js';

const CODE = 'P-BACK';
const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

async function imported(s: TestServer, admin: string, type: string, csv: string[], notify: string) {
  const r = await upload(s, admin, B, type, csv.join('\n'), { dryRun: false, notify });
  expect(r.status).toBe(202);
  expect(r.body).toMatchObject({ notify });
  return settled(s, admin, A, r.body.id, ['completed', 'failed', 'validated']);
}

async function until<T>(what: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const v = await what();
    if (done(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out: ${JSON.stringify(v)}`);
    await new Promise((ok) => setTimeout(ok, 100));
  }
}

/**
 * A backfill tells nobody (docs/api.md, "Imports", `options.notify`): its learners get no welcome and its results
 * no message, while webhooks still get every event, marked `source: import`; an assessment dated more than 30 days
 * before its import never messages the learner, whatever `notify` says.
 */
describeImportSuite('imports over HTTP: backfills that message nobody', (world) => {
  it('notify none messages nobody and still raises every event; notify all welcomes; old results never message', async () => {
    const { s, admin } = world();
    expect((await s.call('POST', `${A}/programmes`, admin, programmeBody(CODE, ['KM-01', 'PM-01']))).status).toBe(201);
    const hook = await s.call('POST', `${A}/webhook-subscriptions`, admin, {
      url: 'https://hooks.example.com/fundi',
      events: ['learner.created', 'assessment.recorded'],
    });
    expect(hook.status).toBe(201);
    const history = await imported(s, admin, 'learners', [LEARNER_HEADER, learnerLine(700), learnerLine(701)], 'none');
    const fresh = await imported(s, admin, 'learners', [LEARNER_HEADER, learnerLine(702)], 'all');
    expect([history.importedRows, fresh.importedRows]).toEqual([2, 1]);
    const enrol = [
      'id_number,programme_code,start_date',
      ...[700, 701, 702].map((n) => `${idNumberFor(n)},${CODE},${day(200)}`),
    ];
    expect(await imported(s, admin, 'enrolments', enrol, 'none')).toMatchObject({ importedRows: 3 });
    const header = 'id_number,module_code,assessment_type,outcome,assessment_date';
    // Told: 702's recent result (notify all). Not told: 700's result of 90 days ago (history, even with notify all).
    const told = [
      header,
      `${idNumberFor(702)},KM-01,summative,C,${day(3)}`,
      `${idNumberFor(700)},KM-01,summative,C,${day(90)}`,
    ];
    expect(await imported(s, admin, 'assessments', told, 'all')).toMatchObject({ importedRows: 2 });
    // Not told: a recent result imported as history.
    const untold = [header, `${idNumberFor(701)},PM-01,summative,C,${day(2)}`];
    expect(await imported(s, admin, 'assessments', untold, 'none')).toMatchObject({ importedRows: 1 });

    const ids: Record<number, string> = {};
    for (const n of [700, 701, 702])
      ids[n] = (await s.call('GET', `${A}/learners?search=${idNumberFor(n)}`, admin)).body.data[0].id;
    const db = s.storage.db!;
    const messages = () =>
      db.all<{ recipient_id: string; template: string }>(
        "SELECT recipient_id, template FROM notifications WHERE recipient_type = 'learner' ORDER BY template",
      );
    // The messages that are due: 702's welcome and result. Then nothing more comes for the others.
    await until(
      messages,
      (m) => m.some((x) => x.template === 'welcome') && m.some((x) => x.template === 'assessment_result'),
    );
    const deliveries = () =>
      db.all<{ event_type: string }>('SELECT event_type FROM webhook_deliveries WHERE subscription_id = ?', [
        hook.body.id,
      ]);
    // Every event reaches the subscription: three learners created, three assessments recorded.
    await until(deliveries, (d) => d.length >= 6);
    await new Promise((ok) => setTimeout(ok, 1500));
    const sent = await messages();
    expect(sent.every((m) => m.recipient_id === ids[702])).toBe(true);
    // The result brings its milestone (half the programme's modules competent), a learner message of the same trigger.
    expect([...new Set(sent.map((m) => m.template))].sort()).toEqual([
      'assessment_result',
      'programme_milestone',
      'welcome',
    ]);
    const d = await deliveries();
    expect(d.filter((x) => x.event_type === 'learner.created')).toHaveLength(3);
    expect(d.filter((x) => x.event_type === 'assessment.recorded')).toHaveLength(3);

    // The events say where they came from, and which told nobody.
    const events = await db.all<{ type: string; data: string }>(
      "SELECT type, data FROM outbox_events WHERE type IN ('learner.created', 'assessment.recorded') ORDER BY id",
    );
    const data = events.map((e): Record<string, unknown> => ({ type: e.type, ...JSON.parse(e.data) }));
    expect(data.filter((e) => e.type === 'learner.created').every((e) => e.source === 'import')).toBe(true);
    const results = data.filter((e) => e.type === 'assessment.recorded');
    expect(results.map((e) => [e.learnerId, e.source, e.notify ?? null])).toEqual([
      [ids[702], 'import', null],
      [ids[700], 'import', 'none'],
      [ids[701], 'import', 'none'],
    ]);
  });
});
