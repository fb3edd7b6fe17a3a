import type { Knex } from 'knex';
import type { Migration } from '../../migrations/migration.js';

const CHUNK = 500;

/** The learner an older staff notification is about, from its dedupe key (`<trigger>:<source>:<recipient>:...`). */
async function learnerOfStaffNotification(
  knex: Knex,
  n: { trigger_key: string; dedupe_key: string },
): Promise<string | null> {
  const source = n.dedupe_key.split(':')[1] ?? '';
  if (n.trigger_key === 'contact_bounced') {
    // The notification that bounced: its recipient is the learner.
    const r = await knex('notifications').where({ id: source }).first('recipient_id', 'recipient_type');
    return r?.recipient_type === 'learner' ? (r.recipient_id as string) : null;
  }
  // new_evidence: the `evidence.uploaded` event names the learner.
  if (!(await knex.schema.hasTable('outbox_events'))) return null;
  const e = await knex('outbox_events').where({ id: source }).first('data');
  if (!e?.data) return null;
  const learnerId = (JSON.parse(e.data as string) as { learnerId?: unknown }).learnerId;
  return typeof learnerId === 'string' ? learnerId : null;
}

/** Notifications about learners erased before the link existed: content and history details go. */
async function redactErased(knex: Knex): Promise<void> {
  let after = '';
  for (;;) {
    const rows = (await knex('notifications')
      .select('id', 'history')
      .whereIn('learner_id', knex('learners').select('id').whereNotNull('erased_at'))
      .where('id', '>', after)
      .orderBy('id')
      .limit(CHUNK)) as { id: string; history: string }[];
    for (const n of rows) {
      const history = (JSON.parse(n.history) as Record<string, unknown>[]).map((h) => ({ ...h, detail: null }));
      await knex('notifications')
        .where({ id: n.id })
        .update({ content: null, history: JSON.stringify(history) });
    }
    if (rows.length < CHUNK) break;
    after = rows.at(-1)!.id;
  }
}

/**
 * The learner each notification is about (`learner_id`), so an erasure finds staff messages that name the learner
 * as well as messages to them. Older rows are linked where that can still be told: a learner recipient, and the
 * staff messages `new_evidence` (from its event) and `contact_bounced` (from the notification that bounced); the
 * content and history details of those about learners already erased are dropped now, as their erasure does. It
 * reads the learners' `learners` and the platform's `outbox_events`, and changes only `notifications`.
 */
export const notificationLearnerLink: Migration = {
  name: 'notifications/202611271018-learner-link',
  formerly: '030-erasure-copies',
  async up(knex: Knex) {
    await knex.schema.alterTable('notifications', (t) => {
      t.string('learner_id');
      t.index(['tenant_id', 'learner_id']);
    });
    // Messages sent through the API to staff users name no learner; an erasure looks through their content.
    await knex.schema.raw(
      `CREATE INDEX notifications_api_staff ON notifications (tenant_id) WHERE trigger_key IS NULL AND recipient_type = 'user'`,
    );
    await knex('notifications')
      .where({ recipient_type: 'learner' })
      .update({ learner_id: knex.ref('recipient_id') });
    let after = '';
    for (;;) {
      const rows = (await knex('notifications')
        .select('id', 'trigger_key', 'dedupe_key')
        .whereIn('trigger_key', ['new_evidence', 'contact_bounced'])
        .whereNotNull('dedupe_key')
        .where('id', '>', after)
        .orderBy('id')
        .limit(CHUNK)) as { id: string; trigger_key: string; dedupe_key: string }[];
      for (const n of rows) {
        const learnerId = await learnerOfStaffNotification(knex, n);
        if (learnerId) await knex('notifications').where({ id: n.id }).update({ learner_id: learnerId });
      }
      if (rows.length < CHUNK) break;
      after = rows.at(-1)!.id;
    }
    if (await knex.schema.hasTable('learners')) await redactErased(knex);
  },
  async down(knex: Knex) {
    await knex.schema.raw('DROP INDEX notifications_api_staff');
    await knex.schema.alterTable('notifications', (t) => {
      t.dropIndex(['tenant_id', 'learner_id']);
      t.dropColumn('learner_id');
    });
  },
};
