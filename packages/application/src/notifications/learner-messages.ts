import type { LearnerSnapshot } from '@fundi/domain/learners';
import type { TemplateKey } from './built-in-templates.js';
import type { Draft } from './notification-drafts.js';
import { portalUrl } from './dashboard-pages.js';
import { learnerRecipient } from './recipients.js';
import { catalogueOf } from './trigger-catalogue.js';
import type { TemplateVariable } from './template-variables.js';
import {
  draft,
  enrolmentContext,
  str,
  triggerOn,
  type EnrolmentContext,
  type RunCache,
  type TriggerContext,
} from './trigger-drafts.js';
import type { TriggerPayload } from './trigger-sources.js';
import { OUTCOME_WORDS } from './learner-template-values.js';

/**
 * Learner messages link to the learner's portal page (`actionUrl`, set for every learner message, docs/api.md,
 * "Notifications"); these link to another page of the portal, where what they tell of is shown. The link names the
 * organisation, so a learner who is not signed in is asked only for their address and lands on the page after.
 */
const PORTAL_PAGES: Partial<Record<TemplateKey, `/${string}`>> = {
  programme_complete: '/statements',
};

/**
 * The learner's notifications of a trigger: email (skipped with the reason when opted out or without an address),
 * and WhatsApp where the template has a WhatsApp version and the learner has a mobile number (skipped with the
 * reason when they gave no consent).
 */
export async function toLearner(
  c: TriggerContext,
  cache: RunCache,
  p: TriggerPayload,
  key: TemplateKey,
  learnerId: string,
  values: Partial<Record<TemplateVariable, string>>,
  channels: readonly ('email' | 'whatsapp')[] = ['email', 'whatsapp'],
): Promise<Draft[]> {
  if (!(await triggerOn(c, cache, p.tenantId, key))) return [];
  const learner: LearnerSnapshot | null = cache.learners.has(learnerId)
    ? cache.learners.get(learnerId)!
    : await c.d.repos.learners.findById(p.tenantId, learnerId);
  if (!learner) return [];
  const def = catalogueOf(c.d).template(key);
  const r = learnerRecipient(learner);
  const use = channels.filter((ch) =>
    ch === 'email' ? def.email !== null : def.whatsapp !== null && r.mobile !== null,
  );
  const page = PORTAL_PAGES[key];
  const tenant = page === undefined || !use.length ? null : await c.d.repos.tenants.findById(p.tenantId);
  const link = page && tenant ? { actionUrl: portalUrl(c.d, `${page}?tenant=${encodeURIComponent(tenant.slug)}`) } : {};
  return use.map((channel) => draft(p, key, r, channel, { ...link, ...values }));
}

/** `learner.created`: the welcome. */
export function welcome(c: TriggerContext, cache: RunCache, p: TriggerPayload): Promise<Draft[]> {
  return toLearner(c, cache, p, 'welcome', str(p.data.id), {});
}

/** `assessment.recorded`: the result, and the milestone when it is competent. */
export async function assessmentResult(c: TriggerContext, cache: RunCache, p: TriggerPayload): Promise<Draft[]> {
  const d = p.data;
  const ctx = await enrolmentContext(c, p.tenantId, str(d.enrolmentId));
  const module = ctx?.modules.find((m) => m.code === d.moduleCode);
  const values = {
    'module.name': module?.name ?? str(d.moduleCode),
    'assessment.result': OUTCOME_WORDS[str(d.outcome)] ?? str(d.outcome),
    'programme.name': ctx?.programmeName ?? '',
  } as const;
  const drafts = await toLearner(c, cache, p, 'assessment_result', str(d.learnerId), values);
  if (ctx && d.outcome === 'C') drafts.push(...(await milestone(c, cache, p, ctx)));
  return drafts;
}

/** WhatsApp only: the learner has half of the programme's modules competent (once per enrolment). */
async function milestone(
  c: TriggerContext,
  cache: RunCache,
  p: TriggerPayload,
  ctx: EnrolmentContext,
): Promise<Draft[]> {
  if (ctx.modules.length < 2) return [];
  const done = await c.d.repos.assessments.summativeForEnrolments(p.tenantId, [ctx.enrolment.id]);
  const competent = new Set(done.filter((a) => a.outcome === 'C').map((a) => a.moduleCode));
  if (competent.size < Math.ceil(ctx.modules.length / 2)) return [];
  const drafts = await toLearner(
    c,
    cache,
    p,
    'programme_milestone',
    ctx.enrolment.learnerId,
    { 'milestone.name': 'half of the modules competent', 'programme.name': ctx.programmeName },
    ['whatsapp'],
  );
  // Once per enrolment, whichever assessment got there.
  return drafts.map((x) => ({ ...x, dedupeKey: `programme_milestone:half:${ctx.enrolment.id}:${x.channel}` }));
}

/** `enrolment.status_changed` to completed: the programme is complete. */
export async function programmeComplete(c: TriggerContext, cache: RunCache, p: TriggerPayload): Promise<Draft[]> {
  const d = p.data;
  const ctx = await enrolmentContext(c, p.tenantId, str(d.enrolmentId));
  return toLearner(c, cache, p, 'programme_complete', str(d.learnerId), {
    'programme.name': ctx?.programmeName ?? str(d.programmeCode),
  });
}
