import { expect, it } from 'vitest';
import { knexFor } from '../../db/open-database.js';
import { describeEachStorage } from '../../testing/each-storage.js';
import { CORE_STORAGE } from '../../testing/test-databases.js';
import { migrationsOf } from '../../storage/capability-storage.js';
import { migrationSource } from '../../migrations/migration.js';
import { outboxPending } from './202611250144-outbox-pending.js';

const source = migrationSource(migrationsOf(CORE_STORAGE));

/** Events not yet fanned out before this migration are queued by it, the others not; down() marks them back. */
describeEachStorage(
  `migration ${outboxPending.name}`,
  (get) => {
    it('queues exactly the undispatched events, drops the column, and rolls back', async () => {
      const knex = knexFor(get().target!);
      try {
        await knex.migrate.down({ migrationSource: source, name: outboxPending.name });
        expect(await knex.schema.hasTable('outbox_pending')).toBe(false);
        const row = (id: string, dispatched: string | null) => ({
          id,
          tenant_id: 'ten_1',
          type: 'learner.created',
          occurred_at: '2026-01-01T00:00:00.000Z',
          data: JSON.stringify({ id: `lrn_${id}` }),
          dispatched_at: dispatched,
        });
        await knex('outbox_events').insert([
          row('evt_1', '2026-01-01T00:00:01.000Z'),
          row('evt_2', null),
          row('evt_3', '2026-01-01T00:00:02.000Z'),
          row('evt_4', null),
        ]);
        await knex.migrate.latest({ migrationSource: source });
        expect(await knex.schema.hasColumn('outbox_events', 'dispatched_at')).toBe(false);
        expect((await knex('outbox_pending').select('id').orderBy('id')).map((r) => r.id)).toEqual(['evt_2', 'evt_4']);

        await knex('outbox_pending').where('id', 'evt_2').delete();
        await knex.migrate.down({ migrationSource: source, name: outboxPending.name });
        const back = await knex('outbox_events').select('id', 'dispatched_at').orderBy('id');
        expect(back).toEqual([
          { id: 'evt_1', dispatched_at: '2026-01-01T00:00:00.000Z' },
          { id: 'evt_2', dispatched_at: '2026-01-01T00:00:00.000Z' },
          { id: 'evt_3', dispatched_at: '2026-01-01T00:00:00.000Z' },
          { id: 'evt_4', dispatched_at: null },
        ]);
        await knex.migrate.latest({ migrationSource: source });
      } finally {
        await knex.destroy();
      }
    });
  },
  ['sqlite', 'postgres'],
);
