import type { OfferedHooks } from '@fundi/application';
import { notificationPreferenceRules } from '@fundi/application/notifications';
import type { StaffField } from '@fundi/application/staff';
import { z } from '../schemas/common.js';

/**
 * The notifications' offer to the staff's `staffFields` hook (docs/api.md, "Users"): `notificationPreferences` on
 * `UserCreate`, `UserUpdate` and `User`, its rules (`notificationPreferenceRules`) with its schemas, which name the
 * triggers a staff user may turn off.
 */
export function notificationPreferencesField(hooks: OfferedHooks): StaffField {
  const rules = notificationPreferenceRules(hooks);
  const Preferences = z
    .record(z.string(), z.boolean())
    .openapi({ description: `Staff triggers this person receives; one key each: ${rules.triggers.join(', ')}` });
  return {
    ...rules,
    schemas: {
      in: Preferences.optional().openapi({ description: `Triggers to turn off: {"${rules.triggers[0]}": false}` }),
      patch: Preferences.optional().openapi({ description: 'Merged key by key' }),
      out: Preferences,
    },
  };
}
