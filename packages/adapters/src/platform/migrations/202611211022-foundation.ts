import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/**
 * The first tables: the platform's audit log, outbox and (Postgres) shared rate-limit counters, and the tables it
 * predates capability modules for: the tenants capability's `tenants`, `api_keys` and `auth_epoch`, and the learners
 * capability's `learners`. Not split: every later migration builds on it.
 */
export const foundation: Migration = {
  name: 'platform/202611211022-foundation',
  formerly: '001-foundation',
  async up(knex: Knex) {
    await knex.schema.createTable('tenants', (t) => {
      t.string('id').primary();
      t.string('slug').notNullable().unique();
      t.string('name').notNullable();
      t.string('plan').notNullable();
      t.text('limit_overrides').notNullable().defaultTo('{}');
      t.string('created_at').notNullable();
    });
    await knex.schema.createTable('api_keys', (t) => {
      t.string('id').primary();
      t.string('tenant_id').notNullable().references('tenants.id');
      t.string('name').notNullable();
      t.string('role').notNullable();
      t.text('scopes').notNullable();
      t.string('prefix').notNullable();
      t.string('hash').notNullable().unique();
      t.string('expires_at');
      t.string('revoked_at');
      t.string('created_at').notNullable();
      t.index(['tenant_id']);
    });
    // Bumped by every write to tenants or API keys, so a process can cache resolved keys and still see a
    // revocation at once: checking one tiny row is cheaper than resolving the key again.
    await knex.schema.createTable('auth_epoch', (t) => {
      t.integer('id').primary();
      t.integer('epoch').notNullable();
    });
    await knex('auth_epoch').insert({ id: 1, epoch: 0 });
    await knex.schema.createTable('learners', (t) => {
      t.string('id').primary();
      t.string('tenant_id').notNullable().references('tenants.id');
      t.string('first_name');
      t.string('last_name');
      t.string('middle_name');
      t.string('id_number');
      t.string('email');
      t.string('email_lower');
      t.string('mobile');
      t.string('phone');
      for (const c of [
        'title',
        'equity_code',
        'nationality_code',
        'home_language_code',
        'citizen_resident_status_code',
        'socioeconomic_status_code',
        'disability_status_code',
        'disability_rating',
        'immigrant_status',
        'province_code',
        'statssa_area_code',
        'popi_act_date',
        'employer',
        'employee_ref',
        'department',
        'job_title',
      ])
        t.string(c);
      for (const p of ['home', 'postal']) {
        for (const n of [1, 2, 3]) t.string(`${p}_address_${n}`);
        t.string(`${p}_postal_code`);
      }
      t.boolean('popi_act_agree');
      t.string('date_of_birth');
      t.string('gender');
      t.string('citizenship');
      t.string('created_at').notNullable();
      t.string('updated_at').notNullable();
      t.string('erased_at');
      t.unique(['tenant_id', 'id_number'], { indexName: 'learners_tenant_id_number_unique' });
      t.unique(['tenant_id', 'email_lower'], { indexName: 'learners_tenant_email_lower_unique' });
      t.index(['tenant_id', 'id']);
      t.index(['tenant_id', 'employee_ref']);
    });
    await knex.schema.createTable('audit_log', (t) => {
      t.string('id').primary();
      t.string('tenant_id').notNullable();
      t.string('actor').notNullable();
      t.string('action').notNullable();
      t.string('resource_type').notNullable();
      t.string('resource_id').notNullable();
      t.string('at').notNullable();
      t.text('details').notNullable();
      t.index(['tenant_id', 'resource_id']);
    });
    await knex.schema.createTable('outbox_events', (t) => {
      t.string('id').primary();
      t.string('tenant_id').notNullable();
      t.string('type').notNullable();
      t.string('occurred_at').notNullable();
      t.text('data').notNullable();
      // Set once the event has been fanned out to its subscribers (the worker's job, docs/webhooks.md).
      t.string('dispatched_at');
      t.index(['tenant_id', 'id']);
      t.index(['dispatched_at', 'id']);
    });
    if (knex.client.config.client === 'pg') {
      // Shared rate-limit counters. Unlogged: losing counts on a database crash is acceptable.
      await knex.raw(`CREATE UNLOGGED TABLE rate_limit_counters (
        key text NOT NULL, window_start bigint NOT NULL, hits integer NOT NULL, expires_at bigint NOT NULL,
        PRIMARY KEY (key, window_start))`);
    }
  },
  async down(knex: Knex) {
    for (const t of [
      'rate_limit_counters',
      'outbox_events',
      'audit_log',
      'learners',
      'auth_epoch',
      'api_keys',
      'tenants',
    ]) {
      await knex.schema.dropTableIfExists(t);
    }
  },
};
