import type { Role } from '@fundi/domain';
import type { TemplateKey } from './built-in-templates.js';
import { DASHBOARD_PAGES, dashboardUrl } from './dashboard-pages.js';
import type { Draft } from './notification-drafts.js';
import { staffFor, userRecipient, wants } from './recipients.js';
import type { TemplateVariable } from './template-variables.js';
import { draft, enrolmentContext, str, triggerOn, type RunCache, type TriggerContext } from './trigger-drafts.js';
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
  roles: Role[],
  values: Partial<Record<TemplateVariable, string>>,
  about?: string,
): Promise<Draft[]> {
  if (!(await triggerOn(c, cache, p.tenantId, key))) return [];
  const staff = await staffFor(c.d.repos, p.tenantId, roles, key);
  return staff.map((r) => draft(p, key, r, 'email', values, about));
}

/** `evidence.uploaded`: the assessors hear of new evidence to review. */
export async function newEvidence(c: TriggerContext, cache: RunCache, p: TriggerPayload): Promise<Draft[]> {
  const t = p.tenantId;
  const d = p.data;
  const learner = await c.d.repos.learners.findById(t, str(d.learnerId));
  if (!learner) return [];
  const ctx = await enrolmentContext(c, t, str(d.enrolmentId));
  return toStaff(
    c,
    cache,
    p,
    'new_evidence',
    ['assessor'],
    {
      'learner.firstName': learner.firstName,
      'learner.lastName': learner.lastName,
      'evidence.type': str(d.evidenceType).replace(/_/g, ' ') || 'evidence',
      'module.name': ctx?.modules.find((m) => m.code === d.moduleId)?.name ?? str(d.moduleId),
      'programme.name': ctx?.programmeName ?? '',
      actionUrl: dashboardUrl(c.d, DASHBOARD_PAGES.evidenceQueue),
    },
    learner.id,
  );
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

/** `export.ready`: the administrators, and the staff user who asked for the export. */
export async function exportReady(c: TriggerContext, cache: RunCache, p: TriggerPayload): Promise<Draft[]> {
  const t = p.tenantId;
  const d = p.data;
  const repos = c.d.repos;
  const drafts = await toStaff(c, cache, p, 'export_complete', ['admin'], {
    'export.type': str(d.type),
    actionUrl: dashboardUrl(c.d, DASHBOARD_PAGES.exports),
  });
  // The staff user who asked for it in the dashboard hears that their report is ready.
  const e = await repos.exports.findById(t, str(d.exportId));
  const asker = e ? await repos.staffCredentials.findById(t, e.createdBy) : null;
  if (
    asker &&
    asker.status === 'active' &&
    wants(asker, 'report_ready') &&
    (await triggerOn(c, cache, t, 'report_ready'))
  )
    drafts.push(
      draft(p, 'report_ready', userRecipient(asker), 'email', {
        'report.name': `${str(d.type)} export${e?.fileName ? ` (${e.fileName})` : ''}`,
        actionUrl: dashboardUrl(c.d, DASHBOARD_PAGES.exports),
      }),
    );
  return drafts;
}

/** A webhook subscription was disabled after failed deliveries: the administrators are told. */
export function webhookDisabled(c: TriggerContext, cache: RunCache, p: TriggerPayload): Promise<Draft[]> {
  return toStaff(c, cache, p, 'webhook_disabled', ['admin'], {
    'webhook.url': str(p.data.url),
    actionUrl: dashboardUrl(c.d, DASHBOARD_PAGES.webhooks),
  });
}
