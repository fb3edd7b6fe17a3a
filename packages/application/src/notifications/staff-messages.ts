import type { Role } from '@fundi/domain';
import type { TemplateKey } from './built-in-templates.js';
import { DASHBOARD_PAGES, dashboardUrl } from './dashboard-pages.js';
import type { Draft } from './notification-drafts.js';
import { staffFor } from './recipients.js';
import type { TemplateVariable } from './template-variables.js';
import { draft, str, triggerOn, type RunCache, type TriggerContext } from './trigger-drafts.js';
import type { TriggerPayload } from './trigger-sources.js';

/**
 * The staff's notifications of a trigger: email to the active users of the roles who want it. `about`: the learner
 * the message names, if any (an erasure finds the message by it).
 */
export async function toStaff(
  c: TriggerContext,
  cache: RunCache,
  p: TriggerPayload,
  key: TemplateKey,
  roles: readonly Role[],
  values: Partial<Record<TemplateVariable, string>>,
  about?: string,
): Promise<Draft[]> {
  if (!(await triggerOn(c, cache, p.tenantId, key))) return [];
  const staff = await staffFor(c.d.repos, p.tenantId, roles, key);
  return staff.map((r) => draft(p, key, r, 'email', values, about));
}

/** A moderation sample was drawn: the moderators hear that it is due. */
export async function moderationDue(c: TriggerContext, cache: RunCache, p: TriggerPayload): Promise<Draft[]> {
  const d = p.data;
  // An empty sample leaves nothing to moderate: nobody is told.
  if (!(Number(d.count) > 0)) return [];
  const programme = await c.d.repos.programmes.findById(p.tenantId, str(d.programmeId));
  return toStaff(c, cache, p, 'moderation_due', ['moderator'], {
    'programme.name': programme?.name ?? str(d.programmeCode),
    'sample.size': String(d.count ?? ''),
    'deadline.date': str(d.dueBy),
    actionUrl: dashboardUrl(c.d, DASHBOARD_PAGES.overview),
  });
}

/** Storage crossed a share of the allowance: the administrators are warned. */
export function quotaWarning(c: TriggerContext, cache: RunCache, p: TriggerPayload): Promise<Draft[]> {
  return toStaff(c, cache, p, 'quota_warning', ['admin'], {
    'quota.percent': String(p.data.percent ?? ''),
    actionUrl: dashboardUrl(c.d, DASHBOARD_PAGES.overview),
  });
}

/** A webhook subscription was disabled after failed deliveries: the administrators are told. */
export function webhookDisabled(c: TriggerContext, cache: RunCache, p: TriggerPayload): Promise<Draft[]> {
  return toStaff(c, cache, p, 'webhook_disabled', ['admin'], {
    'webhook.url': str(p.data.url),
    actionUrl: dashboardUrl(c.d, DASHBOARD_PAGES.webhooks),
  });
}
