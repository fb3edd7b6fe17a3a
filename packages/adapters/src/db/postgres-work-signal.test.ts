import { aNewJob } from '@fundi/domain/testing';
import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStorage } from '../testing/each-storage.js';
import { openTestStorage, POSTGRES_TEST_URL, type TestStorage } from '../testing/test-databases.js';
import { until } from '../testing/worker-processes.js';
import { PostgresWorkSignal, type WorkKind } from './postgres-work-signal.js';

/** An admin connection, to look at and end other sessions. */
async function admin<T>(work: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: POSTGRES_TEST_URL, user: 'postgres' });
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}

const sessionsOf = (app: string) =>
  admin(async (c) =>
    (await c.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [app])).rows.map(
      (r) => r.pid,
    ),
  );

const settle = () => new Promise((ok) => setTimeout(ok, 300));

/** The work signal over a real Postgres: one schema's writes reach its listener, another schema's do not. */
describeEachStorage(
  'PostgresWorkSignal',
  (get) => {
    let other: TestStorage;
    const logs: { level: string; msg: string }[] = [];
    const logger = {
      info: (_: object, msg: string) => logs.push({ level: 'info', msg }),
      warn: (_: object, msg: string) => logs.push({ level: 'warn', msg }),
    };
    const app = `fundi-ws-test-${randomBytes(4).toString('hex')}`;
    let signal: PostgresWorkSignal;
    beforeAll(async () => {
      other = await openTestStorage('postgres');
      const t = get().target!;
      if (t.kind !== 'postgres') throw new Error('a Postgres store was expected');
      signal = new PostgresWorkSignal({ url: t.url, searchPath: t.searchPath, applicationName: app }, logger);
    });
    afterAll(async () => {
      await signal?.close();
      await other?.close();
    });

    it("reports its own schema's outbox and job inserts, and nothing of another schema's", async () => {
      const heard: WorkKind[] = [];
      const l = await signal.listen((what) => heard.push(what));
      try {
        await other.db!.run('INSERT INTO outbox_pending (id) VALUES (?)', ['evt_other']);
        await other.repos.jobs.enqueue(aNewJob({ id: 'job_other' }));
        await settle();
        expect(heard).toEqual([]);

        await get().db!.run('INSERT INTO outbox_pending (id) VALUES (?)', ['evt_1']);
        await until(() => heard.length === 1, 3000, 'the outbox notification');
        await get().repos.jobs.enqueue(aNewJob({ id: 'job_1' }));
        await until(() => heard.length === 2, 3000, 'the job notification');
        expect(heard).toEqual(['outbox', 'jobs']);
      } finally {
        await l.close();
      }
    });

    it('listens again after its backend is terminated, reports both kinds at once, and hears new writes', async () => {
      const heard: WorkKind[] = [];
      const l = await signal.listen((what) => heard.push(what));
      try {
        const [pid] = await sessionsOf(app);
        expect(pid).toBeDefined();
        await admin((c) => c.query('SELECT pg_terminate_backend($1)', [pid]));
        await until(() => heard.length >= 2, 5000, 'the reports after reconnecting');
        expect(heard).toEqual(['outbox', 'jobs']);
        const now = await sessionsOf(app);
        expect(now).toHaveLength(1);
        expect(now[0]).not.toBe(pid);
        expect(logs.some((e) => e.level === 'warn' && e.msg.startsWith('work signal connection lost'))).toBe(true);

        heard.length = 0;
        await get().repos.jobs.enqueue(aNewJob({ id: 'job_2' }));
        await until(() => heard.length === 1, 3000, 'the job notification after reconnecting');
        expect(heard).toEqual(['jobs']);
      } finally {
        await l.close();
      }
    });

    it('close() ends the connection for good: no session left, nothing reported, no reconnect', async () => {
      const heard: WorkKind[] = [];
      const l = await signal.listen((what) => heard.push(what));
      expect(await sessionsOf(app)).toHaveLength(1);
      await l.close();
      await until(async () => (await sessionsOf(app)).length === 0, 3000, 'the session to end');
      await get().db!.run('INSERT INTO outbox_pending (id) VALUES (?)', ['evt_2']);
      await settle();
      expect(heard).toEqual([]);
      expect(await sessionsOf(app)).toHaveLength(0);
    });

    it("the signal's close() ends every listener still open", async () => {
      const signal2 = new PostgresWorkSignal({ url: POSTGRES_TEST_URL, applicationName: app }, logger);
      await signal2.listen(() => {});
      await signal2.listen(() => {});
      expect(await sessionsOf(app)).toHaveLength(2);
      await signal2.close();
      await until(async () => (await sessionsOf(app)).length === 0, 3000, 'the sessions to end');
    });

    it('resolves without throwing when the database is unreachable, retries with one warning, and closes', async () => {
      // A "server" that hangs up on every connection: it counts the retries.
      let attempts = 0;
      const hangUp = createServer((socket) => {
        attempts++;
        socket.destroy();
      });
      await new Promise<void>((ok) => hangUp.listen(0, '127.0.0.1', ok));
      const { port } = hangUp.address() as AddressInfo;
      const warnings: string[] = [];
      const unreachable = new PostgresWorkSignal(
        { url: `postgres://postgres@127.0.0.1:${port}/none`, firstDelayMs: 20, maxDelayMs: 10_000 },
        { info: () => {}, warn: (_, msg) => warnings.push(msg) },
      );
      try {
        const l = await unreachable.listen(() => {
          throw new Error('never called');
        });
        await until(() => attempts >= 4, 3000, 'the retries');
        expect(warnings).toEqual(['work signal connection lost: polling only until it is back']);
        await l.close();
        const after = attempts;
        await new Promise((ok) => setTimeout(ok, 400));
        expect(attempts).toBe(after);
      } finally {
        await new Promise((ok) => hangUp.close(ok));
      }
    });
  },
  ['postgres'],
);
