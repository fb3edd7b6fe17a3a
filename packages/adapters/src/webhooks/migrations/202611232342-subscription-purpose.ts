import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/** A subscription is the webhook API's (`webhook`) or carries a tenant's HR outbound events (`hr_sync`). */
export const subscriptionPurpose: Migration = {
  name: 'webhooks/202611232342-subscription-purpose',
  formerly: '011-subscription-purpose',
  async up(knex: Knex) {
    await knex.schema.alterTable('webhook_subscriptions', (t) => {
      t.string('purpose').notNullable().defaultTo('webhook');
    });
  },
  async down(knex: Knex) {
    await knex.schema.alterTable('webhook_subscriptions', (t) => t.dropColumn('purpose'));
  },
};
