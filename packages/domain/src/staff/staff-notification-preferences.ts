import { DomainError, type ErrorDetail } from '../common/errors.js';

/** The staff and admin notification triggers a staff user can turn off for themselves. */
export const STAFF_TRIGGER_KEYS = [
  'new_evidence',
  'moderation_due',
  'report_ready',
  'user_invited',
  'security_alert',
  'export_complete',
  'quota_warning',
  'webhook_disabled',
  'contact_bounced',
] as const;
export type StaffTriggerKey = (typeof STAFF_TRIGGER_KEYS)[number];
export type NotificationPreferences = Partial<Record<StaffTriggerKey, boolean>>;

/** `{trigger: boolean}` with known triggers only; each offending key is named `notificationPreferences.<key>`. */
export function parseNotificationPreferences(v: unknown): NotificationPreferences {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw DomainError.invalid('notificationPreferences', 'must be an object of trigger: true | false');
  const out: NotificationPreferences = {};
  const errors: ErrorDetail[] = [];
  for (const [k, x] of Object.entries(v)) {
    if (!(STAFF_TRIGGER_KEYS as readonly string[]).includes(k))
      errors.push({
        field: `notificationPreferences.${k}`,
        message: `unknown trigger; one of ${STAFF_TRIGGER_KEYS.join(', ')}`,
      });
    else if (typeof x !== 'boolean')
      errors.push({ field: `notificationPreferences.${k}`, message: 'must be true or false' });
    else out[k as StaffTriggerKey] = x;
  }
  if (errors.length) throw DomainError.invalidMany(errors);
  return out;
}
