import { describe, expect, it } from 'vitest';
import { newId } from '@fundi/domain';
import { aLearnerInput } from '@fundi/domain/testing';
import { anActor, fakeDeps } from '../testing/fakes.js';
import { EraseLearner } from './erase-learner.js';
import { RegisterLearner } from './register-learner.js';
import { UpdateLearner } from './update-learner.js';

const PERSONAL = { firstName: 'Nomvula', lastName: 'Mahlangu', email: 'nomvula.m@example.co.za', mobile: '0821112233' };

describe('EraseLearner reaches the outbox and the attempt log', () => {
  it("redacts the learner's own events, clears replies to them, keeps training events; nothing personal is left", async () => {
    const d = fakeDeps();
    const me = anActor('ten_a');
    const v = await new RegisterLearner(d).execute(me, aLearnerInput(PERSONAL));
    const other = await new RegisterLearner(d).execute(me, aLearnerInput({ firstName: 'Sipho' }));
    await new UpdateLearner(d).execute(me, v.id, { middleName: 'Zinhle', phone: '0115551234' });
    const training = {
      id: newId('evt'),
      tenantId: 'ten_a',
      type: 'enrolment.status_changed',
      occurredAt: v.createdAt,
      data: { enrolmentId: 'enr_1', learnerId: v.id },
    };
    const [created] = await d.repos.outbox.list('ten_a', { types: ['learner.created'], limit: 1 });
    await d.uow.run(async (tx) => {
      await tx.outbox.add(training);
      const attempt = {
        id: newId('wha'),
        deliveryId: 'dlv_1',
        tenantId: 'ten_a',
        subscriptionId: 'whs_1',
        eventId: created!.id,
        eventType: 'learner.created',
        attempt: 1,
        at: v.createdAt,
        statusCode: 200,
        latencyMs: 3,
        error: null,
        responseExcerpt: `got ${v.firstName} ${v.idNumber}`,
      };
      await tx.webhookDeliveries.saveOutcomes('nobody', [
        {
          attempt,
          change: {
            status: 'delivered',
            attempts: 1,
            nextAttemptAt: null,
            lastStatusCode: 200,
            deliveredAt: v.createdAt,
          },
        },
      ]);
    });

    await new EraseLearner(d).execute(me, v.id);

    const events = await d.repos.outbox.list('ten_a', { limit: 10 });
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ['learner.created', { id: v.id, erased: true }],
      ['learner.created', expect.objectContaining({ id: other.id, firstName: 'Sipho' })],
      ['learner.updated', { id: v.id, erased: true }],
      ['enrolment.status_changed', training.data],
      // The internal event the capabilities that keep other copies react to: the learner's id, nothing personal.
      ['learner.erased', { learnerId: v.id }],
    ]);
    expect(d.store.tables.webhookAttempts[0]).toMatchObject({ statusCode: 200, responseExcerpt: null });
    await expect(d.repos.audit.list('ten_a', { limit: 1 })).resolves.toMatchObject([
      { action: 'learner.erased', details: { redactedEvents: 2, clearedResponses: 1 } },
    ]);
    const everything = JSON.stringify(
      [...Object.values(d.store.tables)].map((t) => (t instanceof Map ? [...t.values()] : t)),
    );
    for (const value of [v.idNumber, v.dateOfBirth, ...Object.values(PERSONAL), '821112233', 'Zinhle', '0115551234'])
      expect(everything).not.toContain(value);
  });
});
