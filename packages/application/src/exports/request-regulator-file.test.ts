import { describe, expect, it } from 'vitest';
import { aLearner } from '@fundi/domain/testing';
import { recordChange } from '../common/record-change.js';
import { exportWorld } from '../testing/export-world.js';

describe('a readiness report is kept while the tenant is unchanged', () => {
  it('answers the kept report until an audited change or a new day, then counts again', async () => {
    const w = await exportWorld();
    const add = (n: number) => w.repos.learners.insert(aLearner({ tenantId: w.tenant.id, firstName: `L${n}` }));
    for (let i = 0; i < 3; i++) await add(i);
    const first = await w.exports.requestRegulator.current(w.actor, 'qcto01');
    expect(first.report.leftOut).toBe(3);
    expect(first.byField.find((f) => f.field === 'equityCode')).toEqual({ field: 'equityCode', learners: 3 });
    // A row written without an audit entry (no use case writes so) is not seen: the kept report is answered.
    await add(3);
    expect(await w.exports.requestRegulator.current(w.actor, 'qcto01')).toBe(first);
    expect(await w.exports.requestRegulator.latest(w.actor, 'qcto01')).toMatchObject({ current: true });
    // Any audited change moves the tenant's audit head: the next look counts again.
    await w.uow.run((tx) =>
      recordChange(tx, w.actor, w.clock.now(), { action: 'learner.created', resourceType: 'learner', resourceId: 'x' }),
    );
    const stale = await w.exports.requestRegulator.latest(w.actor, 'qcto01');
    expect(stale).toMatchObject({ current: false, report: { leftOut: 3 } });
    const again = await w.exports.requestRegulator.current(w.actor, 'qcto01');
    expect(again.report.leftOut).toBe(4);
    expect(await w.exports.requestRegulator.latest(w.actor, 'qcto01')).toMatchObject({ current: true });
    // A new day counts again too; the API's dry run answers the same report.
    await add(4);
    w.clock.advance(86_400_000);
    const dry = await w.exports.requestRegulator.execute(w.actor, 'qcto01', { dryRun: true });
    expect(dry.dryRun && dry.report.leftOut).toBe(5);
  });
});
