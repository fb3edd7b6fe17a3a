import type { DomainEvent, JobQueue } from '@fundi/domain';
import type { LearnerSnapshot } from '@fundi/domain/learners';
import { enqueueJob, jobType, type JobDefinition, type JobType } from '../jobs/job-definition.js';
import type { EventReaction } from '../webhooks/dispatch-outbox.js';

/**
 * Internal event (not a webhook event type): a learner was erased; `data: {learnerId}`, nothing personal. Each
 * capability that keeps copies of a learner's personal data beyond the rows the erasure itself redacts (evidence
 * files, mail in the outbox folder, export and import files) reacts to it with a job of its own
 * (docs/architecture.md, "Erasure on disk").
 */
export const LEARNER_ERASED_EVENT = 'learner.erased';

/**
 * What identifies the learner in free text (a message whose content the caller wrote): the email, the ID numbers,
 * the phone numbers (as stored and in the national form) and the full name. Values shorter than 6 characters are
 * left out: they would match far too much.
 */
export function mentionsOf(l: LearnerSnapshot): string[] {
  const national = l.mobile?.startsWith('+27') ? `0${l.mobile.slice(3)}` : null;
  const names = [`${l.firstName} ${l.lastName}`, l.middleName ? `${l.firstName} ${l.middleName} ${l.lastName}` : null];
  const all = [l.email, l.idNumber, l.alternateId, l.mobile, national, l.phone, ...names];
  return [...new Set(all.filter((v): v is string => typeof v === 'string' && v.trim().length >= 6))];
}

/** What an erasure job is told: whose copies go, and when the erasure committed (copies made before it). */
export interface ErasedLearner {
  tenantId: string;
  learnerId: string;
  erasedAt: string;
}

/** The job of one capability's part of an erasure, queued when the `learner.erased` event is dispatched. */
export const erasureJobType = (kind: string): JobType<ErasedLearner> => jobType<ErasedLearner>(kind, 'long');

function parseErasedLearner(v: unknown): ErasedLearner {
  const p = (v ?? {}) as Record<string, unknown>;
  if (typeof p.tenantId !== 'string' || typeof p.learnerId !== 'string')
    throw new Error('expected {tenantId, learnerId, erasedAt}');
  // Evidence erasures queued before the time was carried have none: every copy made until now goes.
  const erasedAt = typeof p.erasedAt === 'string' ? p.erasedAt : new Date().toISOString();
  return { tenantId: p.tenantId, learnerId: p.learnerId, erasedAt };
}

/** The definition of an erasure job: `run` must be safe to repeat (a job runs again after a crash). */
export function erasureJob(type: JobType<ErasedLearner>, run: (p: ErasedLearner) => Promise<unknown>) {
  const d: JobDefinition<ErasedLearner> = { ...type, parse: parseErasedLearner, run: async (p) => void (await run(p)) };
  return d;
}

/** The reaction that queues `type` once per erased learner, in the transaction that dispatches the event. */
export function onLearnerErased(type: JobType<ErasedLearner>): EventReaction {
  return {
    types: [LEARNER_ERASED_EVENT],
    async react(tx: { jobs: JobQueue }, events: readonly DomainEvent[], now: Date): Promise<void> {
      for (const e of events) {
        const learnerId = e.data.learnerId;
        if (typeof learnerId !== 'string') continue;
        const payload = { tenantId: e.tenantId, learnerId, erasedAt: e.occurredAt };
        await enqueueJob(tx.jobs, type, payload, { now, key: `${type.kind}:${learnerId}` });
      }
    },
  };
}

/** The job that scrubs the store's files after erasures (docs/architecture.md, "Erasure on disk"). */
export const SCRUB_AFTER_ERASURE = jobType<Record<string, never>>('learners.scrub_after_erasure', 'long', {
  maxAttempts: 20,
});

const SCRUB_SLOT_MS = 5000;
const SCRUB_MARGIN_MS = 2000;

/**
 * Queues the scrub that makes what the caller's transaction deletes or overwrites unrecoverable from the store's
 * files. Work of one 5-second slot shares one scrub, due 2 seconds after the slot ends: every transaction of the
 * slot has committed by then (unless it stays open that long), and one that comes after the scrub has started
 * falls in a later slot and gets a scrub of its own.
 */
export function scheduleScrub(jobs: JobQueue, now: Date): Promise<unknown> {
  const slot = Math.floor(now.getTime() / SCRUB_SLOT_MS) * SCRUB_SLOT_MS;
  return enqueueJob(
    jobs,
    SCRUB_AFTER_ERASURE,
    {},
    {
      now,
      dueAt: new Date(slot + SCRUB_SLOT_MS + SCRUB_MARGIN_MS),
      key: `scrub-after-erasure@${new Date(slot).toISOString()}`,
    },
  );
}
