import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/**
 * A learner's contact preferences for notifications: WhatsApp consent (and when it was given), the email opt-out,
 * and the flag a hard bounce sets. Nullable: an erasure sets them to null like every personal column; read as false.
 */
export const learnerContactPreferencesMigration: Migration = {
  name: 'learners/202611241850-contact-preferences',
  formerly: '014-learner-contact-preferences',
  async up(knex: Knex) {
    await knex.schema.alterTable('learners', (t) => {
      t.boolean('whatsapp_consent').defaultTo(false);
      t.string('whatsapp_consent_at');
      t.boolean('email_opt_out').defaultTo(false);
      t.boolean('contact_update_needed').defaultTo(false);
    });
  },
  async down(knex: Knex) {
    await knex.schema.alterTable('learners', (t) => {
      t.dropColumn('whatsapp_consent');
      t.dropColumn('whatsapp_consent_at');
      t.dropColumn('email_opt_out');
      t.dropColumn('contact_update_needed');
    });
  },
};
