import type { DomainEvent, JobQueue } from '@fundi/domain';
import { ENROLMENT_COMPLETED_EVENT } from '../enrolments/enrolment-completed.js';
import { enqueueJob, jobType, type JobDefinition } from '../jobs/job-definition.js';
import type { EventReaction } from '../webhooks/dispatch-outbox.js';
import type { HrSource, SendHrOutbound } from './send-hr-outbound.js';

/** The job that writes the HR outbound messages of one dispatch batch's events. */
export const HR_OUTBOUND = jobType<{ events: HrSource[] }>('hr_sync.outbound', 'short', { maxAttempts: 10 });

/**
 * The events HR's outbound messages follow (docs/api.md, "HR sync"): a completed enrolment, every recorded
 * assessment, and a moderation that overturned a result (the outcome that now counts).
 */
const SOURCES = [ENROLMENT_COMPLETED_EVENT, 'assessment.recorded', 'moderation.completed'];
const heard = (e: DomainEvent) =>
  SOURCES.includes(e.type) && (e.type !== 'moderation.completed' || e.data.decision === 'overturned');

/**
 * The outbox reaction: the committed events above queue one outbound job per dispatch batch, in the dispatcher's
 * transaction (so none is lost or queued twice); the job reads the learners and writes the messages.
 */
export const hrOutboundReaction: EventReaction = {
  types: SOURCES,
  async react(tx: { jobs: JobQueue }, events: readonly DomainEvent[], now: Date): Promise<void> {
    const sources = events
      .filter(heard)
      .map((e) => ({ tenantId: e.tenantId, eventId: e.id, type: e.type, occurredAt: e.occurredAt, data: e.data }));
    // The events of a dispatch are taken once (marked dispatched in this transaction): the first id keys the job.
    if (sources.length)
      await enqueueJob(tx.jobs, HR_OUTBOUND, { events: sources }, { now, key: `hr-outbound:${sources[0]!.eventId}` });
  },
};

function parseSources(v: unknown): { events: HrSource[] } {
  const events = (v as { events?: unknown } | null)?.events;
  if (!Array.isArray(events)) throw new Error('expected {events: [...]}');
  for (const e of events as Partial<HrSource>[]) {
    if (typeof e?.tenantId !== 'string' || typeof e.eventId !== 'string' || typeof e.type !== 'string')
      throw new Error('expected events of {tenantId, eventId, type, occurredAt, data}');
    if (typeof e.occurredAt !== 'string' || typeof e.data !== 'object' || e.data === null)
      throw new Error('expected events of {tenantId, eventId, type, occurredAt, data}');
  }
  return { events: events as HrSource[] };
}

/** The definition of the outbound job over its use case. */
export function hrOutboundJob(send: SendHrOutbound): JobDefinition<{ events: HrSource[] }> {
  return { ...HR_OUTBOUND, parse: parseSources, run: (p, ctx) => send.execute(p.events, ctx) };
}
