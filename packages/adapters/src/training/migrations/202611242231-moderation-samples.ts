import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/**
 * Moderation samples drawn and recorded (`POST /moderation/samples`): the request, the programme, the sample's
 * assessment ids (a JSON list, read and written whole with its sample) and who drew it when.
 */
export const moderationSamplesMigration: Migration = {
  name: 'training/202611242231-moderation-samples',
  formerly: '018-moderation-samples',
  async up(knex: Knex) {
    await knex.schema.createTable('moderation_samples', (t) => {
      t.string('id').primary();
      t.string('tenant_id').notNullable().references('tenants.id');
      t.string('programme_id').notNullable().references('programmes.id');
      t.string('programme_code').notNullable();
      t.string('from_date');
      t.string('to_date');
      t.integer('percent').notNullable();
      t.integer('population').notNullable();
      t.integer('already_moderated').notNullable();
      t.text('assessment_ids').notNullable();
      t.string('due_by').notNullable();
      t.string('drawn_by').notNullable();
      t.string('drawn_at').notNullable();
      t.index(['tenant_id', 'id']);
      t.index(['tenant_id', 'programme_id']);
    });
  },
  async down(knex: Knex) {
    await knex.schema.dropTable('moderation_samples');
  },
};
