import { expect, it } from 'vitest';
import { aLearner, aTenant } from '@fundi/domain/testing';
import { knexFor } from '../../db/open-database.js';
import { migrationSource } from '../../migrations/migration.js';
import { migrationsOf } from '../../storage/capability-storage.js';
import { describeEachStorage } from '../../testing/each-storage.js';
import { CORE_STORAGE } from '../../testing/test-databases.js';
import { notificationStorage } from '../sql-notifications.js';
import { notificationLearnerLink } from './202611271018-learner-link.js';

const PARTS = [...CORE_STORAGE, notificationStorage] as const;
const source = migrationSource(migrationsOf(PARTS));
const AT = '2026-06-01T08:00:00.000Z';

/**
 * Notifications made before this migration get the learner they are about where that can be told (a learner recipient, the
 * staff messages `new_evidence` and `contact_bounced`); those about learners erased before lose content and details.
 */
describeEachStorage(
  `migration ${notificationLearnerLink.name}`,
  (get) => {
    it('links older notifications to their learners and redacts those about learners already erased', async () => {
      const { repos } = get();
      const tenant = aTenant();
      await repos.tenants.insert(tenant);
      const kept = aLearner({ tenantId: tenant.id });
      const gone = aLearner({ tenantId: tenant.id });
      for (const l of [kept, gone]) await repos.learners.insert(l);
      await repos.learners.erase(tenant.id, gone.id, AT);
      const knex = knexFor(get().target!);
      try {
        await knex.migrate.down({ migrationSource: source, name: notificationLearnerLink.name });
        expect(await knex.schema.hasColumn('notifications', 'learner_id')).toBe(false);
        const event = (id: string, learnerId: string) => ({
          id,
          tenant_id: tenant.id,
          type: 'evidence.uploaded',
          occurred_at: AT,
          data: JSON.stringify({ evidenceId: 'evd_1', learnerId }),
          subject_id: learnerId,
        });
        await knex('outbox_events').insert([event('evt_kept', kept.id), event('evt_gone', gone.id)]);
        const content = JSON.stringify({ kind: 'email', subject: 'About Thandi', html: 'Thandi', text: 'Thandi' });
        const history = JSON.stringify([{ status: 'bounced', at: AT, detail: '550 <thandi@example.org> unknown' }]);
        const row = (id: string, o: Record<string, string>) => ({
          id,
          tenant_id: tenant.id,
          recipient_type: 'user',
          recipient_id: 'usr_1',
          channel: 'email',
          template: 'new_evidence',
          to_address: 'staff@example.org',
          content,
          status: 'sent',
          history,
          attempts: 1,
          created_by: 'system',
          created_at: AT,
          updated_at: AT,
          ...o,
        });
        await knex('notifications').insert([
          row('ntf_1', {
            recipient_type: 'learner',
            recipient_id: kept.id,
            template: 'welcome',
            trigger_key: 'welcome',
          }),
          row('ntf_2', { trigger_key: 'new_evidence', dedupe_key: `new_evidence:evt_kept:usr_1:email` }),
          row('ntf_3', { trigger_key: 'contact_bounced', dedupe_key: 'contact_bounced:ntf_1:usr_1' }),
          row('ntf_4', { template: 'moderation_due', trigger_key: 'moderation_due', dedupe_key: 'moderation_due:x' }),
          row('ntf_5', { recipient_type: 'learner', recipient_id: gone.id, template: 'welcome', to_address: '' }),
          row('ntf_6', { trigger_key: 'new_evidence', dedupe_key: `new_evidence:evt_gone:usr_1:email` }),
          row('ntf_7', { trigger_key: 'new_evidence', dedupe_key: 'new_evidence:evt_pruned:usr_1:email' }),
        ]);
        await knex.migrate.latest({ migrationSource: source });

        const after = await knex('notifications')
          .select('id', 'learner_id', 'content', 'history')
          .where('tenant_id', tenant.id)
          .orderBy('id');
        expect(after.map((r) => [r.id, r.learner_id])).toEqual([
          ['ntf_1', kept.id],
          ['ntf_2', kept.id],
          ['ntf_3', kept.id],
          ['ntf_4', null],
          ['ntf_5', gone.id],
          ['ntf_6', gone.id],
          // Its event is gone: nothing tells whom it was about.
          ['ntf_7', null],
        ]);
        const redacted = after.filter((r) => r.content === null).map((r) => r.id);
        expect(redacted).toEqual(['ntf_5', 'ntf_6']);
        for (const r of after.filter((x) => redacted.includes(x.id)))
          expect(JSON.parse(r.history)).toEqual([{ status: 'bounced', at: AT, detail: null }]);
        expect(after.find((r) => r.id === 'ntf_2')!.history).toBe(history);

        await knex.migrate.down({ migrationSource: source, name: notificationLearnerLink.name });
        expect(await knex.schema.hasColumn('notifications', 'learner_id')).toBe(false);
        await knex.migrate.latest({ migrationSource: source });
      } finally {
        await knex.destroy();
      }
    });
  },
  ['sqlite', 'postgres'],
  PARTS,
);
