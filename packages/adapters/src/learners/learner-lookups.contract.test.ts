import { beforeAll, expect, it } from 'vitest';
import type { TenantSnapshot } from '@fundi/domain';
import { aLearner } from '@fundi/domain/testing';
import { describeEachStorage } from '../testing/each-storage.js';
import { aStoredTenant } from './learner-fixtures.js';

describeEachStorage('LearnerRepository contract: lookups', (get) => {
  let t: TenantSnapshot;
  let other: TenantSnapshot;
  const repo = () => get().repos.learners;

  beforeAll(async () => {
    t = await aStoredTenant(get().repos);
    other = await aStoredTenant(get().repos);
  });

  it('finds by ID number, email (case-insensitively) and employeeRef; another tenant sees nothing', async () => {
    const l = aLearner({ tenantId: t.id, email: 'Mixed.Case@Example.co.za', employeeRef: 'EMP-FIND' });
    await repo().insert(l);
    await expect(repo().findByIdNumber(t.id, l.idNumber!)).resolves.toMatchObject({ id: l.id });
    await expect(repo().findByEmail(t.id, 'mixed.case@example.CO.ZA')).resolves.toMatchObject({ id: l.id });
    await expect(repo().findByEmployeeRef(t.id, 'EMP-FIND')).resolves.toMatchObject({ id: l.id });
    await expect(repo().findById(other.id, l.id)).resolves.toBeNull();
    await expect(repo().findByIdNumber(other.id, l.idNumber!)).resolves.toBeNull();
    await expect(repo().findByEmail(other.id, l.email!)).resolves.toBeNull();
    await expect(repo().findByEmployeeRef(other.id, 'EMP-FIND')).resolves.toBeNull();
    await expect(repo().findById(t.id, 'lrn_unknown')).resolves.toBeNull();
  });

  it("finds live learners by mobile number, by id, at most the limit; erased and other tenants' left out", async () => {
    const [a, b, gone] = [1, 2, 3].map(() => aLearner({ tenantId: t.id, mobile: '+27825550777' }));
    const foreign = aLearner({ tenantId: other.id, mobile: '+27825550777' });
    for (const l of [a!, b!, gone!, foreign]) await repo().insert(l);
    await repo().erase(t.id, gone!.id, new Date().toISOString());
    const both = await repo().findByMobile(t.id, '+27825550777', 5);
    expect(both.map((l) => l.id)).toEqual([a!.id, b!.id].sort());
    expect(await repo().findByMobile(t.id, '+27825550777', 1)).toHaveLength(1);
    await expect(repo().findByMobile(t.id, '+27825550778', 2)).resolves.toEqual([]);
  });

  it('finds many by id at once: live learners of the tenant only, however many ids', async () => {
    const many = Array.from({ length: 620 }, () => aLearner({ tenantId: t.id }));
    await repo().insertMany(many);
    const foreign = aLearner({ tenantId: other.id });
    await repo().insert(foreign);
    await repo().erase(t.id, many[3]!.id, new Date().toISOString());
    const found = await repo().findByIds(t.id, [...many.map((l) => l.id), foreign.id, 'lrn_unknown']);
    const expected = many.filter((_, i) => i !== 3);
    expect(found.map((l) => l.id).sort()).toEqual(expected.map((l) => l.id).sort());
    expect(found.find((l) => l.id === many[10]!.id)).toEqual(many[10]);
    await expect(repo().findByIds(t.id, [])).resolves.toEqual([]);
  });

  it('finds which ID numbers and emails are taken, in bulk, within the tenant only', async () => {
    const l = aLearner({ tenantId: t.id, email: 'Bulk.Taken@Example.co.za' });
    const free = aLearner({ tenantId: t.id });
    await repo().insert(l);
    const foreigner = aLearner({
      tenantId: t.id,
      idNumber: null,
      citizenship: null,
      alternateId: 'PX990011',
      alternateIdType: 'passport',
      dateOfBirth: '1990-01-04',
      gender: 'F',
      nationalityCode: 'ZIM',
    });
    await repo().insert(foreigner);
    const taken = await repo().findTaken(
      t.id,
      [l.idNumber!, free.idNumber!],
      ['bulk.taken@example.CO.ZA', 'free@x.co'],
      ['passport:PX990011', 'refugee:PX990011'],
    );
    expect([...taken.idNumbers]).toEqual([[l.idNumber, l.id]]);
    expect([...taken.emails]).toEqual([['bulk.taken@example.co.za', l.id]]);
    expect([...taken.alternates]).toEqual([['passport:PX990011', foreigner.id]]);
    // More than one statement's 1,000 values a column: the taken ones past the first thousand are found too.
    const many = Array.from({ length: 1500 }, (_, i) => `99${String(i).padStart(11, '0')}`);
    const wide = await repo().findTaken(
      t.id,
      [...many, l.idNumber!],
      [...many.map((n) => `${n}@x.co`), 'BULK.taken@example.co.za'],
      [],
    );
    expect([...wide.idNumbers]).toEqual([[l.idNumber, l.id]]);
    expect([...wide.emails]).toEqual([['bulk.taken@example.co.za', l.id]]);
    expect(wide.alternates.size).toBe(0);
    const onlyEmails = await repo().findTaken(t.id, [], ['bulk.taken@example.co.za'], ['passport:PX990011']);
    expect([...onlyEmails.idNumbers, ...onlyEmails.emails, ...onlyEmails.alternates]).toEqual([
      ['bulk.taken@example.co.za', l.id],
      ['passport:PX990011', foreigner.id],
    ]);
    const elsewhere = await repo().findTaken(other.id, [l.idNumber!], [l.email!], ['passport:PX990011']);
    expect(elsewhere.idNumbers.size + elsewhere.emails.size + elsewhere.alternates.size).toBe(0);
  });
});
