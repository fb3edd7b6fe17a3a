import { DomainError, type ErrorDetail } from '../common/errors.js';

/**
 * The staff and admin triggers a staff user turned off for themselves (`{"<trigger>": false}`); a trigger not
 * listed is on. Which triggers there are is the service's list of them (`personalTriggers` of every capability's
 * triggers, docs/architecture.md "A capability's anatomy"), handed in by the use case.
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
