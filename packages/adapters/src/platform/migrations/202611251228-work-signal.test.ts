import { aNewJob } from '@fundi/domain/testing';
import pg from 'pg';
import { expect, it } from 'vitest';
import { knexFor } from '../../db/open-database.js';
import { migrationsOf } from '../../storage/capability-storage.js';
import { describeEachStorage } from '../../testing/each-storage.js';
import { CORE_STORAGE, POSTGRES_TEST_URL } from '../../testing/test-databases.js';
import { migrationSource } from '../../migrations/migration.js';
import { WORK_CHANNEL, workSignalMigration } from './202611251228-work-signal.js';

const source = migrationSource(migrationsOf(CORE_STORAGE));
const NAME = workSignalMigration.name;

/** Migration `work-signal`: Postgres announces new outbox_pending and jobs rows on `fundi_work`; SQLite has nothing to do. */
describeEachStorage(
  `migration ${NAME}`,
  (get, kind) => {
    if (kind === 'sqlite') {
      it('is applied and rolled back on SQLite without changing anything', async () => {
        const knex = knexFor(get().target!);
        try {
          const [, pending] = (await knex.migrate.list({ migrationSource: source })) as [unknown[], unknown[]];
          expect(pending).toEqual([]);
          const triggers = () => knex.raw("SELECT name FROM sqlite_master WHERE type = 'trigger'");
          expect(await triggers()).toEqual([]);
          await knex.migrate.down({ migrationSource: source, name: NAME });
          await knex.migrate.latest({ migrationSource: source });
          expect(await triggers()).toEqual([]);
        } finally {
          await knex.destroy();
        }
      });
      return;
    }

    it('notifies after inserts into outbox_pending and jobs with schema and table, once among concurrent transactions, and not after down()', async () => {
      const { db, repos, target } = get();
      const schema = target!.kind === 'postgres' ? target!.searchPath! : '';
      const listener = new pg.Client({ connectionString: POSTGRES_TEST_URL, user: 'postgres' });
      const heard: string[] = [];
      listener.on('notification', (n) => {
        if (n.channel === WORK_CHANNEL && n.payload?.startsWith(`${schema}.`)) heard.push(n.payload);
      });
      await listener.connect();
      const knex = knexFor(target!);
      try {
        await listener.query(`LISTEN ${WORK_CHANNEL}`);
        await db!.run('INSERT INTO outbox_pending (id) VALUES (?)', ['evt_signal_1']);
        await repos.jobs.enqueue(aNewJob({ id: 'job_signal_1' }));
        await until(() => heard.length >= 2);
        expect(heard).toEqual([`${schema}.outbox_pending`, `${schema}.jobs`]);

        // One notification per transaction, however many statements insert.
        heard.length = 0;
        await get().uow.run(async (tx) => {
          for (const n of [2, 3, 4]) await tx.jobs.enqueue(aNewJob({ id: `job_signal_${n}` }));
        });
        await until(() => heard.length >= 1);
        await new Promise((ok) => setTimeout(ok, 100));
        expect(heard).toEqual([`${schema}.jobs`]);

        // While another transaction that will notify is open, a commit of the same table adds no notification.
        heard.length = 0;
        const open = new pg.Client({
          connectionString: POSTGRES_TEST_URL,
          user: 'postgres',
          options: `-c search_path=${schema}`,
        });
        await open.connect();
        try {
          await open.query('BEGIN');
          await open.query("INSERT INTO outbox_pending (id) VALUES ('evt_signal_open')");
          await db!.run('INSERT INTO outbox_pending (id) VALUES (?)', ['evt_signal_meanwhile']);
          await repos.jobs.enqueue(aNewJob({ id: 'job_signal_meanwhile' }));
          await until(() => heard.length >= 1);
          await new Promise((ok) => setTimeout(ok, 200));
          expect(heard).toEqual([`${schema}.jobs`]);
          await open.query('COMMIT');
          await until(() => heard.length >= 2);
          expect(heard).toEqual([`${schema}.jobs`, `${schema}.outbox_pending`]);
        } finally {
          await open.end();
        }

        await knex.migrate.down({ migrationSource: source, name: NAME });
        heard.length = 0;
        await db!.run('INSERT INTO outbox_pending (id) VALUES (?)', ['evt_signal_2']);
        await repos.jobs.enqueue(aNewJob({ id: 'job_signal_5' }));
        await new Promise((ok) => setTimeout(ok, 300));
        expect(heard).toEqual([]);

        await knex.migrate.latest({ migrationSource: source });
        await db!.run('INSERT INTO outbox_pending (id) VALUES (?)', ['evt_signal_3']);
        await until(() => heard.length >= 1);
        expect(heard).toEqual([`${schema}.outbox_pending`]);
      } finally {
        await knex.destroy();
        await listener.end();
      }
    });
  },
  ['sqlite', 'postgres'],
);

async function until(check: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('no notification in time');
    await new Promise((ok) => setTimeout(ok, 10));
  }
}
