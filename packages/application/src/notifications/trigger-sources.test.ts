import type { DomainEvent, JobQueue, NewJob } from '@fundi/domain';
import { describe, expect, it } from 'vitest';
import { evidenceTriggers } from '../evidence/evidence-triggers.js';
import { exportTriggers } from '../exports/export-triggers.js';
import { catalogueOf } from './trigger-catalogue.js';
import { RUN_TRIGGERS, expandTriggers, triggerReaction, type TriggerPayload } from './trigger-sources.js';

/** The reaction over the notifications' own triggers and those the evidence and the exports offer. */
const notificationReaction = triggerReaction(catalogueOf({ hooks: { triggers: [evidenceTriggers, exportTriggers] } }));

/** A queue that only records what was enqueued. */
function recordingQueue(): { jobs: JobQueue; queued: NewJob[] } {
  const queued: NewJob[] = [];
  const jobs = { enqueue: async (j: NewJob) => void queued.push(j) } as unknown as JobQueue;
  return { jobs, queued };
}

/** An event whose data must not be read (as the outbox hands them out, parsed only when read). */
function unreadable(e: Omit<DomainEvent, 'data'>): DomainEvent {
  return {
    ...e,
    get data(): Record<string, unknown> {
      throw new Error(`the data of ${e.id} was read`);
    },
  };
}

describe('notification reaction', () => {
  it("welcomes each learner an import batch's compact event names, keyed by the event and the learner", async () => {
    const { jobs, queued } = recordingQueue();
    const compact = {
      id: 'evt_9',
      tenantId: 'ten_1',
      type: 'learners.written',
      occurredAt: '2026-11-25T00:00:00.000Z',
      data: { learnerIds: ['lrn_1', 'lrn_2'] },
    };
    await notificationReaction.react({ jobs }, [compact], new Date('2026-11-25T00:00:01.000Z'));
    expect(queued).toHaveLength(1);
    const events = (queued[0]!.payload as { events: TriggerPayload[] }).events;
    // The job carries the ids; the learners' payloads are made when it runs.
    expect(events).toEqual([
      { tenantId: 'ten_1', eventId: 'evt_9', type: 'learners.written', data: {}, learnerIds: ['lrn_1', 'lrn_2'] },
    ]);
    expect(expandTriggers(events)).toEqual([
      { tenantId: 'ten_1', eventId: 'evt_9/lrn_1', type: 'learner.created', data: { id: 'lrn_1' } },
      { tenantId: 'ten_1', eventId: 'evt_9/lrn_2', type: 'learner.created', data: { id: 'lrn_2' } },
    ]);
    expect(notificationReaction.readsDataOf).toContain('learners.written');
  });

  it("queues nothing for an import's history: a compact event or an assessment marked notify none", async () => {
    const { jobs, queued } = recordingQueue();
    const at = '2026-11-25T00:00:00.000Z';
    const quiet = [
      {
        id: 'evt_1',
        tenantId: 'ten_1',
        type: 'learners.written',
        occurredAt: at,
        data: { learnerIds: ['lrn_1'], notify: 'none' },
      },
      {
        id: 'evt_2',
        tenantId: 'ten_1',
        type: 'assessment.recorded',
        occurredAt: at,
        data: { learnerId: 'lrn_1', notify: 'none' },
      },
    ];
    await notificationReaction.react({ jobs }, quiet, new Date(at));
    expect(queued).toHaveLength(0);
  });

  it("queues one trigger job per batch, with a learner.created event's subject as the learner, its data unread", async () => {
    const { jobs, queued } = recordingQueue();
    const base = { tenantId: 'ten_1', type: 'learner.created', occurredAt: '2026-11-25T00:00:00.000Z' };
    const events = [
      unreadable({ ...base, id: 'evt_1', subjectId: 'lrn_1' }),
      unreadable({ ...base, id: 'evt_2', subjectId: 'lrn_2' }),
      // An event written without a subject (older rows): the id is read from its data.
      { ...base, id: 'evt_3', data: { id: 'lrn_3', firstName: 'Thandi' } },
    ];
    await notificationReaction.react({ jobs }, events, new Date('2026-11-25T00:00:01.000Z'));
    expect(queued).toHaveLength(1);
    expect(queued[0]!.kind).toBe(RUN_TRIGGERS.kind);
    expect(queued[0]!.idempotencyKey).toBe('notify-events:evt_1');
    expect((queued[0]!.payload as { events: unknown[] }).events).toEqual([
      { tenantId: 'ten_1', eventId: 'evt_1', type: 'learner.created', data: { id: 'lrn_1' } },
      { tenantId: 'ten_1', eventId: 'evt_2', type: 'learner.created', data: { id: 'lrn_2' } },
      { tenantId: 'ten_1', eventId: 'evt_3', type: 'learner.created', data: { id: 'lrn_3' } },
    ]);
  });

  it('reads only the fields a trigger needs from the other events, and skips those it does not react to', async () => {
    const { jobs, queued } = recordingQueue();
    const base = { tenantId: 'ten_1', occurredAt: '2026-11-25T00:00:00.000Z' };
    await notificationReaction.react(
      { jobs },
      [
        { ...base, id: 'evt_1', type: 'enrolment.status_changed', data: { enrolmentId: 'enr_1', to: 'suspended' } },
        {
          ...base,
          id: 'evt_2',
          type: 'export.ready',
          data: { exportId: 'exp_1', type: 'qcto01', url: 'https://files.example/x' },
        },
      ],
      new Date('2026-11-25T00:00:01.000Z'),
    );
    expect((queued[0]!.payload as { events: unknown[] }).events).toEqual([
      { tenantId: 'ten_1', eventId: 'evt_2', type: 'export.ready', data: { exportId: 'exp_1', type: 'qcto01' } },
    ]);
  });
});
