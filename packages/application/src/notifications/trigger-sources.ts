import type { DomainEvent, JobQueue } from '@fundi/domain';
import { SAMPLE_DRAWN_EVENT } from '../assessments/draw-moderation-sample.js';
import { enqueueJob, jobType } from '../jobs/job-definition.js';
import { LEARNERS_WRITTEN_EVENT, learnerIdsOf } from '../learners/learners-written.js';
import { USER_INVITED_EVENT } from '../staff/staff-directory.js';
import { SECURITY_EVENT } from '../tenants/api-key-events.js';
import type { EventReaction } from '../webhooks/dispatch-outbox.js';

/** Internal event (not a webhook event type): a webhook subscription was disabled after failed deliveries. */
export const WEBHOOK_DISABLED_EVENT = 'webhook.subscription_disabled';
/** Internal event: storage crossed 80% or 90% of the tenant's allowance (written by evidence uploads). */
export const QUOTA_EVENT = 'tenant.quota_warning';

/** What a trigger job needs of its event: ids, codes and words, never the learner's personal data. */
export interface TriggerPayload {
  tenantId: string;
  eventId: string;
  type: string;
  data: Record<string, string | number | null>;
  /**
   * An import batch's learners (`learners.written`): each is welcomed as a `learner.created` keyed
   * `<eventId>/<learner>` would be (`expandTriggers`), made when the job runs, so the job carries ids, not a thousand
   * payloads.
   */
  learnerIds?: string[];
}

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

const pick = (d: Record<string, unknown>, keys: string[]) =>
  Object.fromEntries(
    keys.map((k) => {
      const v = d[k];
      return [k, typeof v === 'string' || typeof v === 'number' ? v : null];
    }),
  );

/** The events triggers react to, and the fields each trigger reads. */
const SOURCES: Record<string, (e: DomainEvent) => Record<string, string | number | null> | null> = {
  // The learner's id is the event's subject, so the learner the event carries (about a kilobyte) is not parsed.
  'learner.created': (e) => (e.subjectId ? { id: e.subjectId } : pick(e.data, ['id'])),
  'assessment.recorded': (e) => pick(e.data, ['assessmentId', 'learnerId', 'enrolmentId', 'moduleCode', 'outcome']),
  'enrolment.status_changed': ({ data: d }) =>
    d.to === 'completed' ? pick(d, ['enrolmentId', 'learnerId', 'programmeCode', 'to']) : null,
  'evidence.reviewed': ({ data: d }) =>
    d.status === 'approved' || d.status === 'revision_requested'
      ? pick(d, ['evidenceId', 'learnerId', 'moduleId', 'status', 'feedback'])
      : null,
  'evidence.uploaded': (e) => pick(e.data, ['evidenceId', 'learnerId', 'moduleId', 'enrolmentId', 'evidenceType']),
  [QUOTA_EVENT]: (e) => pick(e.data, ['percent']),
  'export.ready': (e) => pick(e.data, ['exportId', 'type']),
  [WEBHOOK_DISABLED_EVENT]: (e) => pick(e.data, ['subscriptionId', 'url']),
  [SECURITY_EVENT]: (e) => pick(e.data, ['action', 'keyId', 'keyName', 'role', 'count', 'ip']),
  [USER_INVITED_EVENT]: (e) => pick(e.data, ['userId', 'invitedBy']),
  'logbook.submitted': (e) => pick(e.data, ['entryId', 'learnerId', 'submittedAt']),
  [SAMPLE_DRAWN_EVENT]: (e) => pick(e.data, ['sampleId', 'programmeId', 'programmeCode', 'count', 'dueBy']),
};

/**
 * The outbox reaction: the committed events triggers listen to queue one trigger job per dispatch batch, in the
 * dispatcher's transaction (so none is lost or queued twice).
 */
export const notificationReaction: EventReaction = {
  types: [...Object.keys(SOURCES), LEARNERS_WRITTEN_EVENT],
  readsDataOf: [...Object.keys(SOURCES).filter((t) => t !== 'learner.created'), LEARNERS_WRITTEN_EVENT],
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
      const data = SOURCES[e.type]?.(e);
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
