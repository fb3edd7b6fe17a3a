import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/** Requests per API key per UTC day, and the key's last use: `GET /usage` and the key list read them. */
export const apiKeyUsage: Migration = {
  name: 'tenants/202611232343-api-key-usage',
  formerly: '012-api-key-usage',
  async up(knex: Knex) {
    await knex.schema.createTable('api_key_usage', (t) => {
      t.string('key_id').notNullable();
      t.string('day').notNullable();
      t.string('tenant_id').notNullable();
      t.bigInteger('requests').notNullable();
      t.string('last_used_at').notNullable();
      t.primary(['key_id', 'day']);
      t.index(['tenant_id', 'day']);
    });
  },
  async down(knex: Knex) {
    await knex.schema.dropTable('api_key_usage');
  },
};
