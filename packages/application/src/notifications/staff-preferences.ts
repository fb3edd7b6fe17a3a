import {
  parseNotificationPreferences,
  type NotificationPreferences,
  type NotificationRepos,
} from '@fundi/domain/notifications';
import type { OfferedHooks } from '../common/hooks.js';
import { personalTriggers } from '../common/triggers.js';
import type { StaffFieldRules } from '../staff/staff-fields.js';

/** The field's rules, with the triggers a staff user may turn off (which its schemas name). */
export type PreferenceRules = StaffFieldRules<NotificationPreferences, Pick<NotificationRepos, 'staffPreferences'>> & {
  triggers: readonly string[];
};

/**
 * What the notifications add to a staff user through the staff's `staffFields` hook (docs/api.md, "Users"): the
 * staff and admin triggers they turned off, one key each of `personalTriggers` (every capability's offers), merged
 * key by key on a change, every trigger shown on or off, kept in the notifications' own table.
 */
export function notificationPreferenceRules(hooks: OfferedHooks): PreferenceRules {
  const triggers = personalTriggers(hooks.triggers);
  return {
    name: 'notificationPreferences',
    triggers,
    initial: () => ({}),
    parse: (v) => parseNotificationPreferences(v, triggers),
    merge: (current, patch) => ({ ...current, ...patch }),
    view: (v) => Object.fromEntries(triggers.map((k) => [k, v[k] !== false])),
    read: (repos, tenantId, userIds) => repos.staffPreferences.forUsers(tenantId, userIds),
    write: (tx, tenantId, userId, v, at) => tx.staffPreferences.put(tenantId, userId, v, at),
  };
}
