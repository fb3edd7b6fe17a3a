import { newId, type DomainEvent } from '@fundi/domain';
import type { LearnerRepository } from '@fundi/domain/learners';
import type { EventExpansion } from '../webhooks/event-expansion.js';
import { learnerView } from './learner-view.js';

/**
 * Internal event (not a webhook event type): the learners one import batch wrote, by id, in the batch's
 * transaction. It stands for one `learner.created` per learner (docs/webhooks.md, "Compact events").
 */
export const LEARNERS_WRITTEN_EVENT = 'learners.written';

export interface LearnersWrittenData {
  learnerIds: string[];
}

/** The learner ids a `learners.written` event names. */
export function learnerIdsOf(e: Pick<DomainEvent, 'data'>): string[] {
  const ids = (e.data as Partial<LearnersWrittenData>).learnerIds;
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
}

/**
 * `learners.written` -> one `learner.created` per learner, in the order written, each with the learner as stored
 * now. A learner erased before then gets none: nothing of them is left to send.
 */
export const learnersWrittenExpansion: EventExpansion = {
  from: LEARNERS_WRITTEN_EVENT,
  to: 'learner.created',
  async expand(tx, events, now) {
    const learners = (tx as { learners: LearnerRepository }).learners;
    const made: DomainEvent[] = [];
    for (const e of events) {
      const ids = learnerIdsOf(e);
      const found = new Map((await learners.findByIds(e.tenantId, ids)).map((l) => [l.id, l]));
      for (const id of ids) {
        const l = found.get(id);
        if (!l) continue;
        made.push({
          id: newId('evt', now.getTime()),
          tenantId: e.tenantId,
          type: 'learner.created',
          occurredAt: e.occurredAt,
          // An import's learner is marked as such (`source: import`), so a receiver can tell (docs/webhooks.md).
          data: {
            ...learnerView(l),
            ...(e.data.source === 'import' ? { source: 'import' } : {}),
          },
          subjectId: id,
        });
      }
    }
    return made;
  },
};
