import type { TriggerPayload, TriggerRun } from '../common/triggers.js';
import { toLearner } from './learner-messages.js';
import type { Draft } from './notification-drafts.js';
import { userRecipient, wanting } from './recipients.js';
import { toStaff } from './staff-messages.js';
import { draft, enrolmentContext, triggerOn, type RunCache, type TriggerContext } from './trigger-drafts.js';

/**
 * What an offered trigger source (`TriggerSource.tell`) is lent for one event: the same machinery as the
 * notifications' own triggers, so the tenant's switches, the recipients' preferences and opt-outs, the channels a
 * template has and the dedupe keys hold for every capability's triggers alike.
 */
export function triggerRun(c: TriggerContext, cache: RunCache, p: TriggerPayload): TriggerRun<Draft> {
  return {
    toLearner: (key, learnerId, values, channels) => toLearner(c, cache, p, key, learnerId, values, channels),
    toStaff: (key, roles, values, about) => toStaff(c, cache, p, key, roles, values, about),
    toUser: async (key, userId, values) => {
      const u = await c.d.repos.staffCredentials.findById(p.tenantId, userId);
      if (!u || u.status !== 'active' || !(await wanting(c.d.repos, p.tenantId, [u.id], key)).has(u.id)) return [];
      if (!(await triggerOn(c, cache, p.tenantId, key))) return [];
      return [draft(p, key, userRecipient(u), 'email', values)];
    },
    learner: (id) => c.d.repos.learners.findById(p.tenantId, id),
    enrolment: (id) => enrolmentContext(c, p.tenantId, id),
    // One of the pages the offer names (`Triggers.pages`), which a test visits.
    dashboardUrl: (path) => `${c.d.settings.publicUrl}/dashboard${path}`,
  };
}
