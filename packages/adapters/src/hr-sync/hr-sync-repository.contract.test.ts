import { expect, it } from 'vitest';
import { newId } from '@fundi/domain';
import { HrSyncConfig, type HrEventEntry } from '@fundi/domain/hr-sync';
import { describeEachStorage } from '../testing/each-storage.js';
import { CORE_STORAGE } from '../testing/test-databases.js';
import { seedTenant } from '../testing/training-builders.js';
import { hrSyncStorage } from './sql-hr-sync.js';

const PARTS = [...CORE_STORAGE, hrSyncStorage] as const;
const NOW = new Date('2026-06-01T08:00:00.000Z');

function anEntry(tenantId: string, over: Partial<HrEventEntry> = {}): HrEventEntry {
  return {
    id: newId('hre'),
    tenantId,
    eventKey: `id:${newId('evt')}`,
    hrEventId: null,
    event: 'employee.enrolled',
    receivedAt: NOW.toISOString(),
    result: 'processed',
    response: { learnerId: 'lrn_x', created: true },
    error: null,
    learnerId: null,
    data: { employeeId: 'E-1', firstName: 'Thandi' },
    redacted: false,
    ...over,
  };
}

describeEachStorage(
  'HR sync repositories contract',
  (get) => {
    it('saves, replaces and finds a configuration by tenant, slug and current or previous key hash', async () => {
      const { repos } = get();
      const { tenantId } = await seedTenant(repos, 0);
      expect(await repos.hrSyncConfigs.find(tenantId)).toBeNull();
      const c = { ...HrSyncConfig.initial(tenantId, NOW), enabled: true, keyHash: 'aa', keyPrefix: 'hrk_aaaa' };
      await repos.hrSyncConfigs.save(c);
      expect(await repos.hrSyncConfigs.find(tenantId)).toEqual(c);
      const rotated = HrSyncConfig.rotateKey(c, 'bb', 'hrk_bbbb', NOW);
      await repos.hrSyncConfigs.save({ ...rotated, fieldMapping: { staffNo: 'learner.employeeRef' } });
      const found = await repos.hrSyncConfigs.find(tenantId);
      expect(found).toMatchObject({
        keyHash: 'bb',
        previousKeyHash: 'aa',
        fieldMapping: { staffNo: 'learner.employeeRef' },
      });
      expect((await repos.hrSyncConfigs.findByKeyHash('aa'))?.tenantId).toBe(tenantId);
      expect((await repos.hrSyncConfigs.findByKeyHash('bb'))?.tenantId).toBe(tenantId);
      expect(await repos.hrSyncConfigs.findByKeyHash('cc')).toBeNull();
      const tenant = await repos.tenants.findById(tenantId);
      expect((await repos.hrSyncConfigs.findByTenantSlug(tenant!.slug))?.tenantId).toBe(tenantId);
      expect(await repos.hrSyncConfigs.findByTenantSlug('no-such-tenant')).toBeNull();
    });

    it('keeps one processed entry per event key and tenant; failed and duplicate entries are only logged', async () => {
      const { repos, uow } = get();
      const { tenantId } = await seedTenant(repos, 0);
      const other = (await seedTenant(repos, 0)).tenantId;
      const first = anEntry(tenantId, { eventKey: 'id:e-1' });
      await uow.run((tx) => tx.hrEvents.add(first));
      await expect(uow.run((tx) => tx.hrEvents.add(anEntry(tenantId, { eventKey: 'id:e-1' })))).rejects.toMatchObject({
        code: 'hr_event_duplicate',
      });
      await uow.run((tx) => tx.hrEvents.add(anEntry(tenantId, { eventKey: 'id:e-1', result: 'duplicate' })));
      await uow.run((tx) =>
        tx.hrEvents.add(anEntry(tenantId, { eventKey: 'id:e-1', result: 'failed', response: null })),
      );
      await uow.run((tx) => tx.hrEvents.add(anEntry(other, { eventKey: 'id:e-1' })));
      expect(await repos.hrEvents.findProcessed(tenantId, 'id:e-1')).toEqual(first);
      expect(await repos.hrEvents.findProcessed(tenantId, 'id:e-2')).toBeNull();
      const page = await repos.hrEvents.list(tenantId, { kind: 'offset', offset: 0, limit: 2 });
      expect(page).toMatchObject({ total: 3, hasMore: true });
      expect(page.items.map((e) => e.result)).toEqual(['failed', 'duplicate']);
      const next = await repos.hrEvents.list(tenantId, { kind: 'cursor', after: page.items[1]!.id, limit: 2 });
      expect(next.items.map((e) => e.id)).toEqual([first.id]);
      expect(next.hasMore).toBe(false);
    });

    it('redacts the data of every entry about an erased learner, in its tenant only', async () => {
      const { repos, uow } = get();
      const { tenantId } = await seedTenant(repos, 0);
      const other = (await seedTenant(repos, 0)).tenantId;
      await uow.run(async (tx) => {
        await tx.hrEvents.add(anEntry(tenantId, { learnerId: 'lrn_a' }));
        await tx.hrEvents.add(anEntry(tenantId, { learnerId: 'lrn_b' }));
        await tx.hrEvents.add(anEntry(other, { learnerId: 'lrn_a' }));
      });
      expect(await uow.run((tx) => tx.hrEvents.redactLearner(tenantId, 'lrn_a'))).toBe(1);
      const mine = (await repos.hrEvents.list(tenantId, { kind: 'offset', offset: 0, limit: 10 })).items;
      expect(mine.find((e) => e.learnerId === 'lrn_a')).toMatchObject({ data: null, redacted: true });
      expect(mine.find((e) => e.learnerId === 'lrn_b')).toMatchObject({ data: { employeeId: 'E-1' }, redacted: false });
      const theirs = (await repos.hrEvents.list(other, { kind: 'offset', offset: 0, limit: 10 })).items;
      expect(theirs[0]).toMatchObject({ redacted: false });
    });
  },
  undefined,
  PARTS,
);
