import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

/** The job kinds of each priority when this migration ran, for the rows already queued. */
const KINDS_OF = {
  interactive: ['imports.validate', 'imports.confirm', 'exports.run'],
  background: ['notifications.triggers', 'notifications.send', 'notifications.deadline_reminders'],
};

/**
 * Jobs carry what every worker process needs to apply one rule and what an operator needs to find and act on them
 * (docs/architecture.md, "Background jobs"): their priority (`JobPriority`), the time their current or last attempt
 * was claimed, the tenant they work for, and whether an operator cancelled them. The partial index answers "which
 * interactive jobs run now, and since when" from the few unfinished interactive rows.
 */
export const jobPriority: Migration = {
  name: 'platform/202611270920-job-priority',
  formerly: '026-job-priority',
  async up(knex: Knex) {
    await knex.schema.alterTable('jobs', (t) => {
      t.string('priority').notNullable().defaultTo('normal');
      t.string('tenant_id');
      t.string('claimed_at');
      t.string('cancelled_at');
    });
    for (const [priority, kinds] of Object.entries(KINDS_OF))
      await knex('jobs').whereIn('kind', kinds).whereNull('done_at').update({ priority });
    const tenantOf =
      knex.client.config.client === 'pg' ? `(payload::json ->> 'tenantId')` : `json_extract(payload, '$.tenantId')`;
    await knex.raw(`UPDATE jobs SET tenant_id = ${tenantOf} WHERE done_at IS NULL`);
    await knex.raw(
      `CREATE INDEX jobs_interactive_running ON jobs (claimed_at) WHERE priority = 'interactive' AND done_at IS NULL`,
    );
    await knex.schema.alterTable('jobs', (t) => t.index(['tenant_id', 'id']));
  },
  async down(knex: Knex) {
    await knex.schema.alterTable('jobs', (t) => t.dropIndex(['tenant_id', 'id']));
    await knex.raw('DROP INDEX jobs_interactive_running');
    for (const c of ['priority', 'tenant_id', 'claimed_at', 'cancelled_at'])
      await knex.schema.alterTable('jobs', (t) => t.dropColumn(c));
  },
};
