import { describe, expect, it } from 'vitest';
import { FixedClock } from '@fundi/testing';
import { aLearnerInput } from '@fundi/domain/testing';
import type { NotificationSnapshot } from '@fundi/domain/notifications';
import { anActor, fakeDeps } from '../testing/fakes.js';
import { EraseLearner } from './erase-learner.js';
import { RegisterLearner } from './register-learner.js';
import { scheduleScrub } from './learner-erasure.js';

function aNotification(o: Partial<NotificationSnapshot>): NotificationSnapshot {
  const at = '2026-06-01T08:00:00.000Z';
  return {
    id: `ntf_${Math.random().toString(36).slice(2)}`,
    tenantId: 'ten_a',
    recipientType: 'user',
    recipientId: 'usr_assessor',
    channel: 'email',
    template: 'new_evidence',
    learnerId: null,
    to: 'assessor@example.org',
    content: { kind: 'email', subject: 'New evidence from Nomvula', html: '<p>Nomvula</p>', text: 'Nomvula' },
    status: 'sent',
    history: [{ status: 'sent', at, detail: 'accepted for nomvula.m@example.co.za' }],
    attempts: 1,
    providerMessageId: null,
    trigger: 'new_evidence',
    dedupeKey: null,
    createdBy: 'system',
    createdAt: at,
    updatedAt: at,
    ...o,
  };
}

const scrubs = (d: ReturnType<typeof fakeDeps>) =>
  [...d.store.tables.jobs.values()].filter((j) => j.kind === 'learners.scrub_after_erasure').map((j) => j.dueAt);

describe('EraseLearner and the copies of a learner', () => {
  it('redacts notifications to the learner and staff notifications about them; others stay as they were', async () => {
    const d = fakeDeps();
    const me = anActor('ten_a');
    const v = await new RegisterLearner(d).execute(me, aLearnerInput({ firstName: 'Nomvula', lastName: 'Mahlangu' }));
    const toLearner = aNotification({
      recipientType: 'learner',
      recipientId: v.id,
      learnerId: v.id,
      template: 'welcome',
      to: 'nomvula.m@example.co.za',
    });
    const aboutLearner = aNotification({ learnerId: v.id });
    const unrelated = aNotification({ template: 'moderation_due', learnerId: null });
    // Sent through the API to staff: it names no learner, but its content names this one.
    const text = 'Please call nomvula MAHLANGU about the portfolio';
    const naming = aNotification({
      trigger: null,
      learnerId: null,
      content: { kind: 'email', subject: 'A call', html: `<p>${text}</p>`, text },
    });
    const notNaming = aNotification({ trigger: null, learnerId: null });
    await d.repos.notifications.insertMany([toLearner, aboutLearner, unrelated, naming, notNaming]);

    await new EraseLearner(d).execute(me, v.id);

    const bare = [{ status: 'sent', at: '2026-06-01T08:00:00.000Z', detail: null }];
    expect(await d.repos.notifications.findById('ten_a', toLearner.id)).toEqual({
      ...toLearner,
      to: null,
      content: null,
      history: bare,
    });
    expect(await d.repos.notifications.findById('ten_a', aboutLearner.id)).toEqual({
      ...aboutLearner,
      content: null,
      history: bare,
    });
    expect(await d.repos.notifications.findById('ten_a', unrelated.id)).toEqual(unrelated);
    expect(await d.repos.notifications.findById('ten_a', naming.id)).toEqual({
      ...naming,
      learnerId: v.id,
      content: null,
      history: bare,
    });
    // "Nomvula" alone names many people: only the full name, the email, ID and phone numbers count.
    expect(await d.repos.notifications.findById('ten_a', notNaming.id)).toEqual(notNaming);
    await expect(d.repos.audit.list('ten_a', { limit: 1 })).resolves.toMatchObject([
      { action: 'learner.erased', details: { redactedNotifications: 3 } },
    ]);
  });

  it('shares one scrub among the erasures of a 5-second slot, due 2 seconds after it ends', async () => {
    const clock = new FixedClock(new Date('2026-06-01T08:00:01.000Z'));
    const d = fakeDeps(clock);
    const me = anActor('ten_a');
    const a = await new RegisterLearner(d).execute(me, aLearnerInput());
    const b = await new RegisterLearner(d).execute(me, aLearnerInput());
    await new EraseLearner(d).execute(me, a.id);
    clock.set('2026-06-01T08:00:04.900Z');
    await new EraseLearner(d).execute(me, b.id);
    expect(scrubs(d)).toEqual(['2026-06-01T08:00:07.000Z']);
    // Later work (an erasure job's deletions) falls in a slot of its own: a scrub that has started never misses it.
    await d.uow.run((tx) => scheduleScrub(tx.jobs, new Date('2026-06-01T08:00:05.000Z')));
    expect(scrubs(d)).toEqual(['2026-06-01T08:00:07.000Z', '2026-06-01T08:00:12.000Z']);
  });
});
