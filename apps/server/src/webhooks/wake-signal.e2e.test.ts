import { closeContainer } from '@fundi/adapters';
import { postgresAvailable, startReceiver, until, type TestReceiver } from '@fundi/adapters/testing';
import { enqueueJob, jobType, type JobDefinition } from '@fundi/application';
import type { Worker } from '@fundi/worker';
import type { Container } from 'inversify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containerFor } from '../compose.js';
import { workerFor } from '../compose-worker.js';
import { startTestServer, TEST_WEBHOOKS, type TestServer } from '../testing/test-server.js';

const pgUp = await postgresAvailable();
const MASTER_KEY = Buffer.alloc(32, 9);
/** Far beyond every bound below: only the work signal can wake the worker in time. */
const POLL_MS = 60_000;
const BOUND_MS = 2000;

const ran: { n: number; at: number }[] = [];
const PROBE = jobType<{ n: number }>('test.wake-probe', 'short');
const probe: JobDefinition<{ n: number }> = {
  ...PROBE,
  parse: (p) => p as { n: number },
  run: async (p) => {
    ran.push({ n: p.n, at: Date.now() });
  },
};

/**
 * The hosted scale-out on Postgres: an API server and a worker with containers (and pools) of their own on one
 * database. The worker polls once a minute and is never nudged; what the API commits must still reach it at once.
 */
(pgUp ? describe : describe.skip)('a worker on Postgres wakes when another process writes work', () => {
  let api: TestServer;
  let rx: TestReceiver;
  let tenantId: string;
  let key: string;
  let wc: Container;
  let worker: Worker;

  beforeAll(async () => {
    api = await startTestServer('postgres', { masterKey: MASTER_KEY });
    // No check of payloads against the document: one event below is written straight to the outbox.
    rx = await startReceiver();
    ({ id: tenantId, key } = await api.tenant('wake'));
    const sub = await api.call('POST', '/api/v1/webhook-subscriptions', key, {
      url: rx.url,
      events: ['learner.created'],
    });
    expect(sub.status).toBe(201);
    wc = containerFor({
      database: api.storage.target!,
      masterKey: MASTER_KEY,
      logLevel: 'silent',
      webhooks: TEST_WEBHOOKS,
    });
    const settings = { leaseMs: 5000, pollMs: POLL_MS, concurrency: 4, graceMs: 1000 };
    worker = workerFor(wc, settings, 'wake-signal-test', [probe]);
    await worker.start();
    // The loops' first ticks (which find whatever was written before) are over: they sleep for a minute now.
    await new Promise((ok) => setTimeout(ok, 500));
  });
  afterAll(async () => {
    await worker?.stop();
    if (wc) await closeContainer(wc);
    await api?.close();
    await rx?.close();
  });

  it("delivers the webhook of an event another process's API committed within a couple of seconds", async () => {
    const started = Date.now();
    const made = await api.call('POST', '/api/v1/learners', key, {
      firstName: 'Lerato',
      lastName: 'Mokoena',
      idNumber: '9001049818080',
    });
    expect(made.status).toBe(201);
    await rx.waitFor(1, BOUND_MS);
    expect(Date.now() - started).toBeLessThan(BOUND_MS);
    const [got] = rx.received;
    expect(got!.headers['x-webhook-event']).toBe('learner.created');
    expect(JSON.parse(got!.body)).toMatchObject({ tenantId, data: { id: made.body.id } });
  });

  it('runs a job another connection queued within a couple of seconds, and events committed directly too', async () => {
    const started = Date.now();
    await api.storage.uow.run((tx) => enqueueJob(tx.jobs, PROBE, { n: 1 }, { now: new Date() }));
    await until(() => ran.length === 1, BOUND_MS, 'the queued job to run');
    expect(ran[0]!.at - started).toBeLessThan(BOUND_MS);

    // An event written straight to the outbox (no HTTP request at all) wakes the dispatcher the same way.
    const before = rx.received.length;
    const id = `evt_wake_${Date.now()}`;
    const committed = Date.now();
    await api.storage.uow.run((tx) =>
      tx.outbox.add({ id, tenantId, type: 'learner.created', occurredAt: new Date().toISOString(), data: { id } }),
    );
    await until(() => rx.ids().has(id), BOUND_MS, 'the directly committed event');
    expect(Date.now() - committed).toBeLessThan(BOUND_MS);
    expect(rx.received.length).toBe(before + 1);
  });
});
