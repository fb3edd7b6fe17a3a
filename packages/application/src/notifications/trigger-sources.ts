import type { DomainEvent, JobQueue } from '@fundi/domain';
import { SAMPLE_DRAWN_EVENT } from '../assessments/draw-moderation-sample.js';
import { enqueueJob, jobType } from '../jobs/job-definition.js';
import { LEARNERS_WRITTEN_EVENT, learnerIdsOf } from '../learners/learners-written.js';
import { USER_INVITED_EVENT } from '../staff/staff-directory.js';
import { SECURITY_EVENT } from '../tenants/api-key-events.js';
import type { EventReaction } from '../webhooks/dispatch-outbox.js';
import { pick, type TriggerPayload } from '../common/triggers.js';
import type { TriggerCatalogue } from './trigger-catalogue.js';

export type { TriggerPayload } from '../common/triggers.js';

/** Internal event (not a webhook event type): a webhook subscription was disabled after failed deliveries. */
export const WEBHOOK_DISABLED_EVENT = 'webhook.subscription_disabled';
/** Internal event: storage crossed 80% or 90% of the tenant's allowance (written by evidence uploads). */
export const QUOTA_EVENT = 'tenant.quota_warning';

/** The payloads a trigger job works through: an import batch's one payload becomes one per learner. */
export function expandTriggers(events: readonly TriggerPayload[]): TriggerPayload[] {
  if (!events.some((e) => e.learnerIds)) return events as TriggerPayload[];
  return events.flatMap((e) =>
    e.learnerIds
      ? e.learnerIds.map((id) => ({
          tenantId: e.tenantId,
          eventId: `${e.eventId}/${id}`,
          type: 'learner.created',
          data: { id },
        }))
      : [e],
  );
}

/**
 * Reacts to the committed events of one dispatch batch: works out the recipients and sends. Queued by the outbox
 * dispatcher, one job per batch of events (not per event), so a burst of events costs a few jobs.
 */
export const RUN_TRIGGERS = jobType<{ events: TriggerPayload[] }>('notifications.triggers', 'short', {
  maxAttempts: 5,
  priority: 'background',
});

/**
 * The events the notifications' own triggers react to, and the fields each reads; other capabilities offer theirs
 * (`TriggerSource`, the `triggers` hook) and `triggerReaction` listens to those too.
 */
const SOURCES: Record<string, (e: DomainEvent) => Record<string, string | number | null> | null> = {
  // The learner's id is the event's subject, so the learner the event carries (about a kilobyte) is not parsed.
  'learner.created': (e) => (e.subjectId ? { id: e.subjectId } : pick(e.data, ['id'])),
  'assessment.recorded': (e) => pick(e.data, ['assessmentId', 'learnerId', 'enrolmentId', 'moduleCode', 'outcome']),
  'enrolment.status_changed': ({ data: d }) =>
    d.to === 'completed' ? pick(d, ['enrolmentId', 'learnerId', 'programmeCode', 'to']) : null,
  [QUOTA_EVENT]: (e) => pick(e.data, ['percent']),
  [WEBHOOK_DISABLED_EVENT]: (e) => pick(e.data, ['subscriptionId', 'url']),
  [SECURITY_EVENT]: (e) => pick(e.data, ['action', 'keyId', 'keyName', 'role', 'count', 'ip']),
  [USER_INVITED_EVENT]: (e) => pick(e.data, ['userId', 'invitedBy']),
  'logbook.submitted': (e) => pick(e.data, ['entryId', 'learnerId', 'submittedAt']),
  [SAMPLE_DRAWN_EVENT]: (e) => pick(e.data, ['sampleId', 'programmeId', 'programmeCode', 'count', 'dueBy']),
};

/**
 * The outbox reaction: the committed events triggers listen to (the notifications' own and every offered source's)
 * queue one trigger job per dispatch batch, in the dispatcher's transaction (so none is lost or queued twice).
 */
export function triggerReaction(catalogue: Pick<TriggerCatalogue, 'events' | 'sourcesOf'>): EventReaction {
  const offered = catalogue.events.filter((t) => !Object.hasOwn(SOURCES, t));
  const types = [...Object.keys(SOURCES), ...offered, LEARNERS_WRITTEN_EVENT];
  /** What the job carries of an event: the own source's fields and every offered source's; null when none tells. */
  const readOf = (e: DomainEvent): TriggerPayload['data'] | null => {
    const own = SOURCES[e.type]?.(e) ?? null;
    const reads = catalogue.sourcesOf(e.type).map((s) => s.reads(e));
    if (!reads.some(Boolean)) return own;
    return Object.assign({}, own, ...reads);
  };
  return {
    types,
    readsDataOf: types.filter((t) => t !== 'learner.created'),
    async react(tx: { jobs: JobQueue }, events: readonly DomainEvent[], now: Date): Promise<void> {
      const payloads: TriggerPayload[] = [];
      for (const e of events) {
        // An import's history (`options.notify: none`, or an assessment long past): webhooks get it, nobody is told.
        // `learner.created` is never an import's (its learners come as `learners.written`), and its data stays unread.
        if (e.type !== 'learner.created' && e.data.notify === 'none') continue;
        if (e.type === LEARNERS_WRITTEN_EVENT) {
          // An import batch's learners, each welcomed as a `learner.created` would be; `<event>/<learner>` keys each.
          payloads.push({ tenantId: e.tenantId, eventId: e.id, type: e.type, data: {}, learnerIds: learnerIdsOf(e) });
          continue;
        }
        const data = readOf(e);
        if (data) payloads.push({ tenantId: e.tenantId, eventId: e.id, type: e.type, data });
      }
      // The events of a dispatch are taken once (marked dispatched in this transaction): the first id keys the job.
      if (payloads.length)
        await enqueueJob(
          tx.jobs,
          RUN_TRIGGERS,
          { events: payloads },
          { now, key: `notify-events:${payloads[0]!.eventId}` },
        );
    },
  };
}
