import { existsSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStorage, POSTGRES_TEST_URL, type TestReceiver } from '@fundi/adapters/testing';
import { startTestServer, type TestServer } from '@fundi/server/testing';

const PERSONAL = {
  firstName: 'Nomvula',
  lastName: 'Mahlangu',
  idNumber: '9001045800082',
  email: 'nomvula.m@example.co.za',
  mobile: '0821112233',
};
/** Every personal value the learner ever had, in any spelling it is stored or sent in. */
const TRACES = [
  ...Object.values(PERSONAL),
  '821112233',
  '1990-01-04',
  'Zinhle',
  '0115551234',
  'nomvula.new@example.co.za',
];

async function until(check: () => Promise<boolean> | boolean, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((ok) => setTimeout(ok, 20));
  }
}

/**
 * POPIA erasure reaches the outbox and the webhook log: after a learner DELETE, a held delivery, a replay
 * and every table of the database hold no personal value of the learner, and receivers get `{id, erased: true}`.
 */
describeEachStorage(
  'learner erasure reaches the outbox and the webhook log (server + worker)',
  (_get, kind) => {
    let s: TestServer;
    let rx: TestReceiver;
    let key: string;
    let sub: { id: string; secret: string };

    beforeAll(async () => {
      s = await startTestServer(kind, { worker: {} });
      rx = await s.receiver({
        status: 200,
        body: `thanks for ${PERSONAL.firstName} ${PERSONAL.lastName} ${PERSONAL.idNumber}`,
      });
      key = (await s.tenant('erase')).key;
      const created = await s.call('POST', '/api/v1/webhook-subscriptions', key, {
        url: rx.url,
        events: ['learner.created', 'learner.updated'],
      });
      expect(created.status).toBe(201);
      sub = created.body;
    });
    afterAll(async () => {
      await s?.close();
      await rx?.close();
    });

    const attemptLog = async () =>
      (await s.call('GET', `/api/v1/webhook-subscriptions/${sub.id}/deliveries?limit=100`, key)).body;
    const everyTable = async (): Promise<string> => {
      const db = s.storage.db!;
      const tables = await db.all<{ name: string }>(db.dialect.tablesQuery);
      expect(tables.map((t) => t.name)).toEqual(
        expect.arrayContaining(['learners', 'outbox_events', 'webhook_deliveries', 'webhook_attempts', 'audit_log']),
      );
      const rows = await Promise.all(tables.map((t) => db.all(`SELECT * FROM ${t.name}`)));
      return JSON.stringify(rows);
    };

    it('leaves no personal value anywhere; pending deliveries and replays send the redacted data', async () => {
      const startedAt = new Date(Date.now() - 1000).toISOString();
      const learner = await s.call('POST', '/api/v1/learners', key, PERSONAL);
      expect(learner.status).toBe(201);
      const id = learner.body.id as string;
      expect(
        (await s.call('PATCH', `/api/v1/learners/${id}`, key, { middleName: 'Zinhle', phone: '0115551234' })).status,
      ).toBe(200);
      await rx.waitFor(2, 5000);
      await until(async () => (await attemptLog()).pagination.total === 2, 'two attempts logged');
      expect(JSON.stringify(await attemptLog())).toContain(PERSONAL.idNumber);
      expect(await everyTable()).toContain(PERSONAL.idNumber);

      expect((await s.call('PATCH', `/api/v1/webhook-subscriptions/${sub.id}`, key, { enabled: false })).status).toBe(
        200,
      );
      expect(
        (await s.call('PATCH', `/api/v1/learners/${id}`, key, { email: 'nomvula.new@example.co.za' })).status,
      ).toBe(200);
      await until(
        async () => (await s.storage.db!.all(`SELECT id FROM webhook_deliveries WHERE status = 'held'`)).length === 1,
        'a held delivery',
      );
      expect((await s.call('DELETE', `/api/v1/learners/${id}`, key)).status).toBe(204);

      const events = await s.storage.repos.outbox.list((await s.storage.repos.tenants.findBySlug('erase'))!.id, {
        limit: 10,
      });
      expect(events.map((e) => [e.type, e.data])).toEqual([
        ['learner.created', { id, erased: true }],
        ['learner.updated', { id, erased: true }],
        ['learner.updated', { id, erased: true }],
        // Internal (no subscriber can take it): the capabilities that keep other copies react to it.
        ['learner.erased', { learnerId: id }],
      ]);
      const log = JSON.stringify(await attemptLog());
      for (const trace of TRACES) expect(log).not.toContain(trace);

      rx.setMode({ status: 200 });
      const before = rx.received.length;
      expect((await s.call('POST', `/api/v1/webhook-subscriptions/${sub.id}/enable`, key)).status).toBe(200);
      expect(
        (await s.call('POST', `/api/v1/webhook-subscriptions/${sub.id}/replay`, key, { since: startedAt })).status,
      ).toBe(202);
      await until(() => rx.received.length >= before + 4, 'the held delivery and three replays');
      const after = rx.received.slice(before);
      expect(new Set(after.map((r) => r.headers['webhook-id'])).size).toBe(3);
      for (const r of after) {
        const payload = new Webhook(sub.secret).verify(r.body, r.headers as Record<string, string>) as {
          data: unknown;
        };
        expect(payload.data).toEqual({ id, erased: true });
        for (const trace of TRACES) expect(r.body).not.toContain(trace);
      }
      await until(async () => (await attemptLog()).pagination.total >= 6, 'the new attempts logged');
      const everything = await everyTable();
      for (const trace of TRACES) expect(everything, trace).not.toContain(trace);

      // On disk too: the scrub job the erasure enqueued leaves no old version of a row in the database's files.
      await until(
        async () =>
          (
            await s.storage.db!.all(
              `SELECT id FROM jobs WHERE kind = 'learners.scrub_after_erasure' AND done_at IS NOT NULL AND last_error IS NULL`,
            )
          ).length >= 1,
        'the scrub job',
        20_000,
      );
      if (kind === 'sqlite') {
        const file = (s.storage.target as { filename: string }).filename;
        const bytes = Buffer.concat([file, `${file}-wal`].filter((f) => existsSync(f)).map((f) => readFileSync(f)));
        expect(bytes.length).toBeGreaterThan(0);
        for (const trace of TRACES)
          expect(bytes.includes(Buffer.from(trace)), `${trace} in the database files`).toBe(false);
      } else {
        // A VACUUM of our own finds nothing left to remove: the scrub took every old version of the learner's row
        // (the only learner here). Statistics (`n_dead_tup`) are no proof: the erasing session reports its dead
        // rows up to seconds later, after the scrub's VACUUM had counted them gone.
        const { searchPath } = s.storage.target as { searchPath: string };
        const c = new pg.Client({ connectionString: POSTGRES_TEST_URL, options: `-c search_path=${searchPath}` });
        const notices: string[] = [];
        c.on('notice', (n) => notices.push(n.message ?? ''));
        await c.connect();
        try {
          await c.query('VACUUM (VERBOSE) learners');
        } finally {
          await c.end();
        }
        const table = notices.find((m) => /tuples: \d+ removed/.test(m)) ?? '';
        expect(/tuples: (\d+) removed/.exec(table)?.[1], 'old versions of the erased learner row').toBe('0');
        expect(table).toMatch(/, 0 are dead but not yet removable/);
        expect(notices.join('\n')).not.toMatch(/tuples missed: [1-9]/);
      }
    }, 60_000);
  },
  ['sqlite', 'postgres'],
);
