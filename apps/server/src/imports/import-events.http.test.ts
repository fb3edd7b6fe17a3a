import { expect, it } from 'vitest';
import type { TestServer } from '../testing/test-server.js';
import { LEARNER_HEADER, learnerLine, settled, upload } from '../testing/import-fixtures.js';
import { A, describeImportSuite } from './imports-http-fixture.js';

const HOOK = { url: 'https://hooks.example.com/fundi', events: ['learner.created'] };

/** Uploads and confirms a learner file; the learners written, by id. */
async function importLearners(s: TestServer, admin: string, from: number, n: number): Promise<string[]> {
  const csv = [LEARNER_HEADER, ...Array.from({ length: n }, (_, i) => learnerLine(from + i))].join('\n');
  const r = await upload(s, admin, A, 'learners', csv);
  await settled(s, admin, A, r.body.id, ['validated']);
  expect((await s.call('POST', `${A}/imports/${r.body.id}/confirm`, admin)).status).toBe(202);
  expect(await settled(s, admin, A, r.body.id, ['completed'])).toMatchObject({ importedRows: n });
  const listed = await s.call('GET', `${A}/learners?limit=100`, admin);
  return listed.body.data
    .filter((l: { email: string }) => Number(/\d+/.exec(l.email)![0]) >= from)
    .map((l: { id: string }) => l.id);
}

async function until<T>(what: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const v = await what();
    if (done(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out: ${JSON.stringify(v)}`);
    await new Promise((ok) => setTimeout(ok, 50));
  }
}

/** The learner.created events about `learners`. */
const createdEvents = async (s: TestServer, learners: readonly string[]) =>
  (
    await s.storage.db!.all<{ id: string; data: string; subject_id: string }>(
      "SELECT id, data, subject_id FROM outbox_events WHERE type = 'learner.created' ORDER BY id",
    )
  ).filter((e) => learners.includes(e.subject_id));

/** Each event's data is its learner as `GET /learners/{id}` shows it, marked as an import's (`source`). */
async function expectAsTheApiShows(s: TestServer, admin: string, events: { data: string; subject_id: string }[]) {
  for (const e of events) {
    const shown = await s.call('GET', `${A}/learners/${e.subject_id}`, admin);
    expect(JSON.parse(e.data)).toEqual({ ...shown.body, source: 'import' });
  }
}

const deliveriesOf = (s: TestServer, subscriptionId: string) =>
  s.storage.db!.all<{ event_id: string }>(
    "SELECT event_id FROM webhook_deliveries WHERE subscription_id = ? AND event_type = 'learner.created'",
    [subscriptionId],
  );

/**
 * An import writes one compact `learners.written` event per batch; its learners' `learner.created` events are made
 * where a subscription wants them, at fan-out or in a replay, each carrying the learner as the API shows it.
 */
describeImportSuite('imports: the learner.created events of imported learners', (world) => {
  it('a subscription at import time gets one learner.created per learner, with the learner as the API shows it', async () => {
    const { s, admin } = world();
    const sub = await s.call('POST', '/api/v1/webhook-subscriptions', admin, HOOK);
    expect(sub.status).toBe(201);
    const ids = await importLearners(s, admin, 300, 3);
    const events = await until(
      () => createdEvents(s, ids),
      (e) => e.length >= 3,
    );
    expect(events.map((e) => e.subject_id).sort()).toEqual([...ids].sort());
    await expectAsTheApiShows(s, admin, events);
    const delivered = await until(
      () => deliveriesOf(s, sub.body.id),
      (d) => d.length >= 3,
    );
    expect(delivered.map((d) => d.event_id).sort()).toEqual(events.map((e) => e.id).sort());
    const compact = (
      await s.storage.db!.all<{ data: string }>("SELECT data FROM outbox_events WHERE type = 'learners.written'")
    )
      .map((c) => JSON.parse(c.data))
      .find((c) => c.learnerIds.includes(ids[0]));
    expect(compact).toMatchObject({ learnerIds: expect.any(Array), expandedAt: expect.any(String) });

    // A replay since before the import sends the same events again (same ids), and makes no new ones.
    const replay = await s.call('POST', `/api/v1/webhook-subscriptions/${sub.body.id}/replay`, admin, {
      since: '2020-01-01T00:00:00Z',
    });
    expect(replay.status).toBe(202);
    const again = await until(
      () => deliveriesOf(s, sub.body.id),
      (d) => d.length >= 6,
    );
    expect(new Set(again.map((d) => d.event_id))).toEqual(new Set(events.map((e) => e.id)));
    expect(await createdEvents(s, ids)).toHaveLength(3);
  });

  it('without a subscription none is made; a later subscription replaying since then gets them', async () => {
    const { s } = world();
    // A tenant of its own: the other test's subscription is another tenant's.
    const admin = (await s.tenant('quiet')).key;
    const ids = await importLearners(s, admin, 400, 2);
    // Each learner is welcomed all the same (the notification trigger reads the compact event).
    const welcomed = await until(
      () =>
        s.storage.db!.all<{ recipient_id: string }>(
          "SELECT recipient_id FROM notifications WHERE template = 'welcome' AND recipient_type = 'learner'",
        ),
      (n) => ids.every((id) => n.some((r) => r.recipient_id === id)),
    );
    expect(welcomed.filter((r) => ids.includes(r.recipient_id))).toHaveLength(2);
    expect(await createdEvents(s, ids)).toHaveLength(0);

    const sub = await s.call('POST', '/api/v1/webhook-subscriptions', admin, HOOK);
    const replay = await s.call('POST', `/api/v1/webhook-subscriptions/${sub.body.id}/replay`, admin, {
      since: '2020-01-01T00:00:00Z',
    });
    expect(replay.status).toBe(202);
    const delivered = await until(
      () => deliveriesOf(s, sub.body.id),
      (d) => d.length >= 2,
    );
    const events = await createdEvents(s, ids);
    expect(events.map((e) => e.subject_id).sort()).toEqual([...ids].sort());
    expect(delivered.map((d) => d.event_id).sort()).toEqual(events.map((e) => e.id).sort());
    await expectAsTheApiShows(s, admin, events);
  });
});
