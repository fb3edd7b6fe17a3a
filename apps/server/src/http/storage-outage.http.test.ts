import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, type DatabaseTarget } from '@fundi/adapters';
import {
  POSTGRES_TEST_URL,
  postgresAvailable,
  startTcpFaultProxy,
  until,
  type TcpFaultProxy,
} from '@fundi/adapters/testing';
import { aLearnerInput } from '@fundi/domain/testing';
import pg from 'pg';
import { startTestServer, type TestServer } from '@fundi/server/testing';
import { FORMS, FORM_A } from '../testing/http-forms.js';

const pgUp = await postgresAvailable();

/** Ends the server's own Postgres sessions (those behind the proxy, by client port): what a restart does to them. */
async function endSessionsBehind(proxy: TcpFaultProxy): Promise<number> {
  const admin = new pg.Client({ connectionString: POSTGRES_TEST_URL, user: 'postgres' });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ ended: boolean }>(
      `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
       WHERE client_addr = '127.0.0.1' AND client_port = ANY($1::int[])`,
      [proxy.upstreamPorts()],
    );
    return rows.filter((r) => r.ended).length;
  } finally {
    await admin.end();
  }
}

/**
 * The API while its database is unreachable: the server's connections run through a proxy of the test's own, which
 * refuses them, cuts them or hands them to `pg_terminate_backend`; the shared Postgres keeps running.
 */
(pgUp ? describe : describe.skip)('the API when the database goes away [postgres]', () => {
  let base: TestServer;
  let s: TestServer;
  let proxy: TcpFaultProxy;
  let key: string;
  const lines: { level: number; msg: string; requestId?: string; code?: string }[] = [];
  beforeAll(async () => {
    base = await startTestServer('postgres');
    const real = new URL(POSTGRES_TEST_URL);
    proxy = await startTcpFaultProxy({ host: real.hostname, port: Number(real.port || 5432) });
    const via = new URL(POSTGRES_TEST_URL);
    via.hostname = '127.0.0.1';
    via.port = String(proxy.port);
    const target = { ...(base.storage.target as Extract<DatabaseTarget, { kind: 'postgres' }>), url: via.toString() };
    const sink = new Writable({
      write(chunk, _enc, done) {
        for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
        done();
      },
    });
    s = await startTestServer('postgres', { attach: { ...base.storage, target }, logger: createLogger('info', sink) });
    key = (await s.tenant('outage')).key;
  });
  afterAll(async () => {
    await s?.close();
    await proxy?.close();
    await base?.close();
  });

  it('answers 503 in each form with Retry-After while it cannot reach the database, and recovers by itself', async () => {
    expect((await s.call('GET', '/ready')).status).toBe(200);
    await proxy.stop();
    const ready = await s.call('GET', '/ready');
    expect(ready).toMatchObject({ status: 503, body: { status: 'unavailable' } });
    for (const form of FORMS) {
      const code = form === FORM_A ? 'service_unavailable' : 'SERVICE_UNAVAILABLE';
      // `call` checks every answer against the served OpenAPI document: the 503 is documented for each operation.
      const read = await s.call('GET', form.learners('outage'), key);
      expect(read.status).toBe(503);
      expect(read.body.error.code).toBe(code);
      expect(read.body.error.details).toEqual(form === FORM_A ? [] : {});
      expect(read.headers.get('retry-after')).toBe('5');
      const write = await s.call('POST', form.learners('outage'), key, aLearnerInput());
      expect(write.status).toBe(503);
      expect(write.body.error.code).toBe(code);
      expect(write.body.error.message).toMatch(/nothing was changed/);
    }
    const logged = lines.filter((l) => l.msg === 'storage unavailable');
    expect(logged.length).toBeGreaterThanOrEqual(6);
    expect(logged.every((l) => l.level === 40 && typeof l.requestId === 'string')).toBe(true);

    await proxy.resume();
    await until(async () => (await s.call('GET', '/ready')).status === 200, 10_000, '/ready to answer 200 again');
    const made = await s.call('POST', FORM_A.learners('outage'), key, aLearnerInput());
    expect(made.status).toBe(201);
    // The writes answered 503 left nothing behind.
    const list = await s.call('GET', FORM_A.learners('outage'), key);
    expect(list.body.data.map((l: { id: string }) => l.id)).toEqual([made.body.id]);
  });

  it('its sessions ended under it (as by a fast restart): no 500, and the next requests succeed', async () => {
    await s.call('GET', FORM_A.learners('outage'), key);
    expect(await endSessionsBehind(proxy)).toBeGreaterThan(0);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++)
      statuses.push((await s.call('POST', FORM_A.learners('outage'), key, aLearnerInput())).status);
    expect(statuses.filter((st) => st !== 201 && st !== 503)).toEqual([]);
    expect(statuses.at(-1)).toBe(201);
  });
});
