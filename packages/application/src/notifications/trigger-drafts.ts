import type { LearnerSnapshot } from '@fundi/domain/learners';
import type { EnrolmentSnapshot } from '@fundi/domain/training';
import type { TemplateKey } from './built-in-templates.js';
import type { NotificationPorts } from './notification-ports.js';
import type { Draft } from './notification-drafts.js';
import type { CreateNotifications } from './create-notifications.js';
import type { Recipient } from './recipients.js';
import type { TemplateVariable } from './template-variables.js';
import type { TriggerPayload } from '../common/triggers.js';

export { str } from '../common/triggers.js';

/** What the trigger messages use: the ports and the use case that makes the notifications. */
export interface TriggerContext {
  d: NotificationPorts;
  create: CreateNotifications;
}

/** What one trigger run reads once and shares between its events. */
export interface RunCache {
  learners: Map<string, LearnerSnapshot | null>;
  settings: Map<string, Record<string, boolean>>;
}

/** The programme of an enrolment, with its modules' names. */
export interface EnrolmentContext {
  enrolment: EnrolmentSnapshot;
  programmeName: string;
  modules: { code: string; name: string }[];
}

/** Whether the tenant has the trigger on, read once per run. */
export async function triggerOn(c: TriggerContext, cache: RunCache, tenantId: string, key: string): Promise<boolean> {
  let t = cache.settings.get(tenantId);
  if (!t) {
    t = (await c.d.repos.notificationSettings.get(tenantId))?.triggers ?? {};
    cache.settings.set(tenantId, t);
  }
  return t[key] !== false;
}

export function draft(
  p: TriggerPayload,
  key: TemplateKey,
  recipient: Recipient,
  channel: 'email' | 'whatsapp',
  values: Partial<Record<TemplateVariable, string>>,
  about?: string,
): Draft {
  return {
    ...(about ? { about } : {}),
    recipient,
    channel,
    template: key,
    values: new Map(Object.entries(values).filter(([, v]) => v) as [TemplateVariable, string][]),
    trigger: key,
    dedupeKey: `${key}:${p.eventId}:${recipient.id}:${channel}`,
    createdBy: 'system',
  };
}

export async function enrolmentContext(
  c: TriggerContext,
  tenantId: string,
  enrolmentId: string,
): Promise<EnrolmentContext | null> {
  if (!enrolmentId) return null;
  const enrolment = await c.d.repos.enrolments.findById(tenantId, enrolmentId);
  if (!enrolment) return null;
  const programme = await c.d.repos.programmes.findById(tenantId, enrolment.programmeId);
  return programme ? { enrolment, programmeName: programme.name, modules: programme.modules } : null;
}
