import { DomainError, type ErrorDetail } from '../common/errors.js';

/**
 * The staff and admin triggers a staff user turned off for themselves (`{"<trigger>": false}`); a trigger not
 * listed is on. Which triggers there are is the service's list of them (`personalTriggers` of every capability's
 * triggers, docs/architecture.md "A capability's anatomy"), handed in by the caller.
 */
export type NotificationPreferences = Readonly<Partial<Record<string, boolean>>>;

/**
 * `{trigger: boolean}` with the known `triggers` only; each offending key is named `notificationPreferences.<key>`.
 */
export function parseNotificationPreferences(v: unknown, triggers: readonly string[]): NotificationPreferences {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw DomainError.invalid('notificationPreferences', 'must be an object of trigger: true | false');
  const out: Record<string, boolean> = {};
  const errors: ErrorDetail[] = [];
  for (const [k, x] of Object.entries(v)) {
    if (!triggers.includes(k))
      errors.push({
        field: `notificationPreferences.${k}`,
        message: `unknown trigger; one of ${triggers.join(', ')}`,
      });
    else if (typeof x !== 'boolean')
      errors.push({ field: `notificationPreferences.${k}`, message: 'must be true or false' });
    else out[k] = x;
  }
  if (errors.length) throw DomainError.invalidMany(errors);
  return out;
}

/**
 * Port: each staff user's notification preferences, kept by the notifications beside the staff directory (the
 * staff capability's `staffFields` hook writes them in the transaction of the user's create or update).
 */
export interface StaffPreferenceRepository {
  /** The preferences stored for the tenant's users among `userIds`, by user id (a user with none is left out). */
  forUsers(tenantId: string, userIds: readonly string[]): Promise<Map<string, NotificationPreferences>>;
  /** Replaces a user's preferences. */
  put(tenantId: string, userId: string, preferences: NotificationPreferences, at: string): Promise<void>;
}
