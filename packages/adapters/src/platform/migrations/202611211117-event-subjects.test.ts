import { expect, it } from 'vitest';
import { knexFor } from '../../db/open-database.js';
import { describeEachStorage } from '../../testing/each-storage.js';
import { CORE_STORAGE } from '../../testing/test-databases.js';
import { migrationsOf } from '../../storage/capability-storage.js';
import { migrationSource } from '../../migrations/migration.js';
import { eventSubjects } from './202611211117-event-subjects.js';

const source = migrationSource(migrationsOf(CORE_STORAGE));

/** Events written before this migration get their subject from the JSON text, on both databases; down() undoes it. */
describeEachStorage(
  `migration ${eventSubjects.name}`,
  (get) => {
    it('backfills the subject of learner events only, and rolls back', async () => {
      const knex = knexFor(get().target!);
      try {
        await knex.migrate.down({ migrationSource: source, name: eventSubjects.name });
        expect(await knex.schema.hasColumn('outbox_events', 'subject_id')).toBe(false);
        const row = (id: string, type: string, data: object) => ({
          id,
          tenant_id: 'ten_1',
          type,
          occurred_at: '2026-01-01T00:00:00.000Z',
          data: JSON.stringify(data),
        });
        await knex('outbox_events').insert([
          row('evt_1', 'learner.created', { id: 'lrn_a', firstName: 'Nomvula' }),
          row('evt_2', 'learner.updated', {
            id: 'lrn_a',
            changes: { firstName: 'Zinhle' },
            updatedAt: '2026-01-02T00:00:00.000Z',
          }),
          row('evt_3', 'assessment.recorded', { assessmentId: 'asm_1', learnerId: 'lrn_a' }),
          row('evt_4', 'ping', { subscriptionId: 'whs_1', message: 'hi' }),
        ]);
        await knex.migrate.latest({ migrationSource: source });
        const subjects = await knex('outbox_events').select('id', 'subject_id').orderBy('id');
        expect(subjects).toEqual([
          { id: 'evt_1', subject_id: 'lrn_a' },
          { id: 'evt_2', subject_id: 'lrn_a' },
          { id: 'evt_3', subject_id: null },
          { id: 'evt_4', subject_id: null },
        ]);
      } finally {
        await knex.destroy();
      }
    });
  },
  ['sqlite', 'postgres'],
);
