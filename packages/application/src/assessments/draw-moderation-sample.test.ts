import { describe, expect, it } from 'vitest';
import { sha256Secrets } from '@fundi/testing';
import { aWorld } from '../testing/training-world.js';
import { DrawModerationSample, SAMPLE_DRAWN_EVENT } from './draw-moderation-sample.js';
import { GetModerationSample } from './get-moderation-sample.js';
import { ListModerationSamples } from './list-moderation-samples.js';
import { SampleForModeration } from './moderation-sample.js';

async function world() {
  const w = aWorld();
  await w.programme('P1', ['M1', 'M2']);
  const programmeId = (await w.deps.repos.programmes.findByCode(w.tenantId, 'P1'))!.id;
  for (let n = 0; n < 4; n++) {
    const learnerId = await w.learner(n);
    await w.enrolment(learnerId, 'P1');
    await w.assess(learnerId, 'M1', { assessmentDate: `2026-03-1${n}` });
    await w.assess(learnerId, 'M2', { assessmentDate: `2026-04-1${n}` });
  }
  const deps = { ...w.deps, secrets: sha256Secrets() };
  return { w, programmeId, draw: new DrawModerationSample(deps), peek: new SampleForModeration(deps) };
}

describe('DrawModerationSample', () => {
  it('records the sample the GET gives, with audit and a moderation.sample_drawn event in one go', async () => {
    const { w, programmeId, draw, peek } = await world();
    const s = await draw.execute(w.actor, { programmeCode: 'P1', from: '2026-03-01', percent: 50 });
    const same = await peek.execute(w.actor, { programmeCode: 'P1', from: '2026-03-01', percent: 50 });
    expect(s).toMatchObject({
      id: expect.stringMatching(/^smp_/),
      programmeId,
      programmeCode: 'P1',
      from: '2026-03-01',
      to: null,
      percent: 50,
      population: 8,
      alreadyModerated: 0,
      dueBy: '2026-06-15',
      drawnBy: w.actor.id,
      drawnAt: '2026-06-01T08:00:00.000Z',
    });
    expect(s.assessmentIds).toEqual(same.sample.map((a) => a.id));
    // Named by id it is the same request, so the same sample.
    const byId = await draw.execute(w.actor, { programmeId, from: '2026-03-01', percent: 50 });
    expect(byId.assessmentIds).toEqual(s.assessmentIds);
    expect(await new GetModerationSample(w.deps).execute(w.actor, s.id)).toEqual(s);
    const listed = await new ListModerationSamples(w.deps).execute(
      w.actor,
      { programmeCode: 'P1' },
      { kind: 'cursor', limit: 10, after: null },
    );
    expect(listed.items.map((x) => x.id)).toEqual([s.id, byId.id]);
    const [event] = await w.deps.repos.outbox.list(w.tenantId, { types: [SAMPLE_DRAWN_EVENT], limit: 5 });
    expect(event!.data).toEqual({
      sampleId: s.id,
      programmeId,
      programmeCode: 'P1',
      from: '2026-03-01',
      to: null,
      percent: 50,
      population: 8,
      count: 4,
      dueBy: '2026-06-15',
      drawnBy: { type: 'api_key', id: w.actor.id, name: null },
    });
    const audit = w.deps.store.tables.audit.filter((a) => a.action === SAMPLE_DRAWN_EVENT);
    expect(audit.map((a) => a.resourceId)).toEqual([s.id, byId.id]);
  });

  it('refuses bad input and writes nothing', async () => {
    const { w, programmeId, draw } = await world();
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'programmeId'],
      [{ programmeCode: 'NOPE' }, 'programmeCode'],
      [{ programmeId: 'prg_nope' }, 'programmeId'],
      [{ programmeId, programmeCode: 'OTHER' }, 'programmeCode'],
      [{ programmeCode: 'P1', percent: 101 }, 'percent'],
      [{ programmeCode: 'P1', from: '2026-04-01', to: '2026-03-01' }, 'to'],
      [{ programmeCode: 'P1', dueBy: '2026-05-31' }, 'dueBy'],
      [{ programmeCode: 'P1', dueBy: '2026-02-30' }, 'dueBy'],
    ];
    for (const [input, field] of cases)
      await expect(draw.execute(w.actor, input), JSON.stringify(input)).rejects.toMatchObject({
        kind: 'invalid',
        details: [{ field }],
      });
    expect(w.deps.store.tables.moderationSamples.size).toBe(0);
    expect(await w.deps.repos.outbox.list(w.tenantId, { types: [SAMPLE_DRAWN_EVENT], limit: 5 })).toEqual([]);
    await expect(new GetModerationSample(w.deps).execute(w.actor, 'smp_nope')).rejects.toMatchObject({
      kind: 'not_found',
    });
  });
});
