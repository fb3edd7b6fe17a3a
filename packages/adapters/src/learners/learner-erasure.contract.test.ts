import { beforeAll, expect, it } from 'vitest';
import type { TenantSnapshot } from '@fundi/domain';
import { aLearner } from '@fundi/domain/testing';
import { describeEachStorage } from '../testing/each-storage.js';
import { aStoredTenant, at } from './learner-fixtures.js';

describeEachStorage('LearnerRepository contract: erasure', (get) => {
  let other: TenantSnapshot;
  const repo = () => get().repos.learners;
  const fresh = () => aStoredTenant(get().repos);

  beforeAll(async () => {
    other = await aStoredTenant(get().repos);
  });

  it('erases: personal data gone, never found or listed, ID number and email free again', async () => {
    const x = await fresh();
    const l = aLearner({ tenantId: x.id, email: 'erase.me@example.co.za', employeeRef: 'ERASE' });
    await repo().insert(l);
    await expect(repo().erase(other.id, l.id, at(5))).resolves.toBe(false);
    await expect(repo().erase(x.id, l.id, at(5))).resolves.toBe(true);
    await expect(repo().erase(x.id, l.id, at(6))).resolves.toBe(false);
    await expect(repo().erase(x.id, 'lrn_unknown', at(6))).resolves.toBe(false);
    await expect(repo().findById(x.id, l.id)).resolves.toBeNull();
    await expect(repo().findByIdNumber(x.id, l.idNumber!)).resolves.toBeNull();
    await expect(repo().findByEmail(x.id, 'erase.me@example.co.za')).resolves.toBeNull();
    await expect(repo().findByEmployeeRef(x.id, 'ERASE')).resolves.toBeNull();
    await expect(repo().list(x.id, {}, { kind: 'offset', offset: 0, limit: 10 })).resolves.toMatchObject({
      items: [],
      total: 0,
    });
    await expect(
      repo().insert(aLearner({ tenantId: x.id, idNumber: l.idNumber, email: l.email })),
    ).resolves.toBeUndefined();
  });
});
