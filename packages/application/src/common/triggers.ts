import type { DomainEvent, Role } from '@fundi/domain';

/*
 * The contract of the `triggers` hook (docs/architecture.md, "A capability's anatomy"): a capability whose records
 * people are told about offers its triggers in its module (`offers.triggers`), and the notifications capability runs
 * the generic machinery over every capability's offer: the trigger switches, the templates and their overrides,
 * rendering, channels, jobs and delivery. This file names no capability; each offer names only its own records.
 */

/** What a trigger job carries of an event: ids, codes and words, never the learner's personal data. */
export interface TriggerPayload {
  tenantId: string;
  eventId: string;
  type: string;
  data: Record<string, string | number | null>;
  /**
   * An import batch's learners (`learners.written`): each is welcomed as a `learner.created` keyed
   * `<eventId>/<learner>` would be, made when the job runs, so the job carries ids, not a thousand payloads.
   */
  learnerIds?: string[];
}

/** The variables the service's own triggers supply, which any template may name besides its capability's own. */
export type SharedVariable =
  | 'learner.firstName'
  | 'learner.lastName'
  | 'learner.email'
  | 'programme.name'
  | 'module.name'
  | 'assessment.result'
  | 'deadline.date'
  | 'organisation.name'
  | 'actionUrl'
  | 'recipient.firstName'
  | 'deadline.task'
  | 'milestone.name'
  | 'report.name'
  | 'quota.percent'
  | 'webhook.url'
  | 'alert.summary'
  | 'inviter.name'
  | 'sample.size'
  | 'portal.code';

/** An email template: `{{variable}}` placeholders in each part. */
export interface EmailTemplate {
  subject: string;
  html: string;
  text: string;
}

/** A WhatsApp template approved on the provider's side; `parameters` fill its `{{1}}`, `{{2}}`, ... in order. */
export interface WhatsAppTemplate<V extends string = string> {
  name: string;
  language: string;
  parameters: readonly V[];
}

/** A built-in template: what its trigger sends by each channel (null: not by that one), and when. */
export interface TemplateDefinition<K extends string = string, V extends string = string> {
  /** The template's key, which is also its trigger's switch. */
  key: K;
  /**
   * Its place in every list of templates and triggers (the template list, the switches, the staff preferences,
   * error messages), across capabilities: the order they were added in. A new one takes a free number.
   */
  order: number;
  audience: 'learner' | 'staff' | 'admin';
  /** When the service sends it. Every trigger is on unless a tenant turns it off. */
  trigger: string;
  email: EmailTemplate | null;
  whatsapp: WhatsAppTemplate<V | SharedVariable> | null;
  /** Example values that render every part: the documented sample. */
  sample: Partial<Record<V | SharedVariable, string>>;
  /** Staff and admin templates: false when a staff user cannot turn it off for themselves (a password reset). */
  personal?: boolean;
}

/** Values for one message, by variable: an empty one is left out. */
export type Told<V extends string> = Partial<Record<V | SharedVariable, string>>;

/**
 * What a trigger source is lent to say who is told: the messages it returns (`M`) are made by the machinery, which
 * skips a trigger the tenant turned off, a recipient who opted out, and a channel the template lacks.
 */
export interface TriggerRun<M, K extends string = string, V extends string = string, P extends Page = Page> {
  /** The learner's messages (email, and WhatsApp where the template has one), `channels` to narrow them. */
  toLearner(key: K, learnerId: string, values: Told<V>, channels?: readonly ('email' | 'whatsapp')[]): Promise<M[]>;
  /** Email to the active staff users of `roles` who want it; `about`: the learner it names (erasure finds it). */
  toStaff(key: K, roles: readonly Role[], values: Told<V>, about?: string): Promise<M[]>;
  /** Email to one staff user, if active and they want it. */
  toUser(key: K, userId: string, values: Told<V>): Promise<M[]>;
  learner(id: string): Promise<{ id: string; firstName: string; lastName: string } | null>;
  /** The programme of an enrolment with its modules' names, null when there is none. */
  enrolment(id: string): Promise<{ programmeName: string; modules: readonly { code: string; name: string }[] } | null>;
  /** A link into the dashboard under the service's public URL: one of the pages the offer names (`pages`). */
  dashboardUrl(path: P): string;
}

/**
 * One committed event a capability's triggers react to. `R`: the repositories `tell` reads its records from (the
 * service's unit of work hands every capability's, as to an erasure step).
 */
export interface TriggerSource<
  R extends object = object,
  K extends string = string,
  V extends string = string,
  P extends Page = Page,
> {
  event: string;
  /** The fields the trigger job carries (`pick`), or null when this event tells nobody. */
  reads(e: DomainEvent): TriggerPayload['data'] | null;
  /** Who is told, with which template and values. */
  tell<M>(run: TriggerRun<M, K, V, P>, p: TriggerPayload, repos: R): Promise<M[]>;
}

/** A variable a capability's templates offer: what it holds, and its messaging channel alias, if any. */
export interface OfferedVariable {
  about: string;
  alias?: string;
}

/** What a capability offers through the `triggers` hook: its templates, their variables and the events they follow. */
export interface Triggers<
  R extends object = object,
  K extends string = string,
  V extends string = string,
  P extends Page = Page,
> {
  templates: readonly TemplateDefinition<K, V>[];
  variables: Readonly<Record<V, OfferedVariable>>;
  /** The dashboard pages its messages link to (a test visits each); a source may link to no other. */
  pages?: readonly P[];
  sources: readonly TriggerSource<R, K, V, P>[];
}

/** A dashboard page, under `/dashboard`. */
export type Page = `/${string}`;

/**
 * Declares a capability's triggers with their keys and variables inferred: a template's WhatsApp parameters and
 * sample, and the values a source tells, may name only its own variables and the shared ones.
 */
export function triggers<
  R extends object,
  const K extends string,
  const V extends string = never,
  const P extends Page = never,
>(t: {
  variables: Readonly<Record<V, OfferedVariable>>;
  templates: readonly TemplateDefinition<K, NoInfer<V>>[];
  pages?: readonly P[];
  sources: readonly TriggerSource<R, NoInfer<K>, NoInfer<V>, NoInfer<P>>[];
}): Triggers<R, K, V, P> {
  return t;
}

const personal = new WeakMap<readonly Triggers[], readonly string[]>();

/**
 * The staff and admin triggers a staff user may turn off for themselves (`notificationPreferences`, docs/api.md
 * "Users"), in the templates' order: every offer's templates for staff or admins but those not `personal`.
 */
export function personalTriggers(offers: readonly Triggers[]): readonly string[] {
  let keys = personal.get(offers);
  if (!keys) {
    const mine = offers.flatMap((o) => o.templates).filter((t) => t.audience !== 'learner' && t.personal !== false);
    keys = mine.sort((a, b) => a.order - b.order).map((t) => t.key);
    personal.set(offers, keys);
  }
  return keys;
}

/** The fields `keys` of an event's data, each a string, a number or null. */
export function pick(d: Record<string, unknown>, keys: readonly string[]): TriggerPayload['data'] {
  return Object.fromEntries(
    keys.map((k) => {
      const v = d[k];
      return [k, typeof v === 'string' || typeof v === 'number' ? v : null];
    }),
  );
}

/** A payload field as a string ('' when it is none). */
export const str = (v: unknown) => (typeof v === 'string' ? v : '');
