import { beforeAll, expect, it } from 'vitest';
import type { TenantSnapshot } from '@fundi/domain';
import type { LearnerSnapshot } from '@fundi/domain/learners';
import { aLearner, GOLDEN_READY_PROFILE } from '@fundi/domain/testing';
import { describeEachStorage } from '../testing/each-storage.js';
import { aStoredTenant, at } from './learner-fixtures.js';

describeEachStorage('LearnerRepository contract: writes', (get) => {
  let t: TenantSnapshot;
  let other: TenantSnapshot;
  const repo = () => get().repos.learners;
  const uow = () => get().uow;

  beforeAll(async () => {
    t = await aStoredTenant(get().repos);
    other = await aStoredTenant(get().repos);
  });

  it('round-trips every field, including addresses and the consent flag', async () => {
    const l = aLearner({
      tenantId: t.id,
      ...GOLDEN_READY_PROFILE,
      middleName: 'Zanele',
      mobile: '+27821234567',
      phone: '0111234567',
      title: 'Ms',
      disabilityRating: '01',
      immigrantStatus: '01',
      statssaAreaCode: 'A123',
      postalAddress: { line1: 'PO Box 1', line2: null, line3: null, postalCode: '2000' },
      popiActAgree: false,
      employer: 'Acme',
      employeeRef: 'E-1',
      department: 'Ops',
      jobTitle: 'Clerk',
    });
    await repo().insert(l);
    await expect(repo().findById(t.id, l.id)).resolves.toEqual(l);
  });

  it('inserts many at once, and refuses the lot when one of them is a duplicate', async () => {
    const many = Array.from({ length: 1500 }, () => aLearner({ tenantId: t.id }));
    await repo().insertMany(many);
    await expect(repo().findById(t.id, many[1499]!.id)).resolves.toEqual(many[1499]);
    const again = [aLearner({ tenantId: t.id }), { ...aLearner({ tenantId: t.id }), idNumber: many[0]!.idNumber }];
    await expect(uow().run((tx) => tx.learners.insertMany(again))).rejects.toMatchObject({
      code: 'duplicate_id_number',
    });
    await expect(repo().findById(t.id, again[0]!.id)).resolves.toBeNull();
  });

  it('inserts many with every kind of value intact: addresses, yes/no fields, quotes and non-ASCII text', async () => {
    const full = aLearner({
      tenantId: t.id,
      firstName: 'Zoë "Zee"',
      lastName: "O'Neil-Mokoena \\ backslash",
      middleName: 'Ñandú',
      employer: 'Acme, Mining & Co',
      employeeRef: 'E-1',
      homeAddress: { line1: '1 Long Street', line2: 'Apt "B"', line3: null, postalCode: '8001' },
      postalAddress: { line1: 'PO Box 7', line2: null, line3: 'Cape Town', postalCode: null },
      popiActAgree: true,
      whatsappConsent: true,
      whatsappConsentAt: '2026-01-02T03:04:05.000Z',
      emailOptOut: true,
      contactUpdateNeeded: true,
    });
    const plain = aLearner({ tenantId: t.id, popiActAgree: false, email: null, mobile: null });
    await repo().insertMany([full, plain]);
    await expect(repo().findById(t.id, full.id)).resolves.toEqual(full);
    await expect(repo().findById(t.id, plain.id)).resolves.toEqual(plain);
  });

  it('inserts many with the characters a bulk load escapes kept exactly: tabs, line breaks, backslashes, \\N', async () => {
    const odd = aLearner({
      tenantId: t.id,
      firstName: 'Tab\there',
      lastName: 'Line\nbreak\r\nand CR\r',
      middleName: '\\N',
      employer: 'back\\slash \\t not a tab, \\. and \\\\ two',
      employeeRef: '\\.',
      department: '"quoted", \'single\'; semi;colon',
      jobTitle: 'Ṱ̈́ėşťïñğ 日本語 🎓 \u00a0nbsp',
      homeAddress: { line1: '\t', line2: '', line3: null, postalCode: 'NULL' },
    });
    const plain = aLearner({ tenantId: t.id, middleName: null, employer: null });
    await uow().run((tx) => tx.learners.insertMany([odd, plain]));
    await expect(repo().findById(t.id, odd.id)).resolves.toEqual(odd);
    await expect(repo().findById(t.id, plain.id)).resolves.toEqual(plain);
  });

  it('a batch refused for a duplicate leaves nothing of its transaction, and the store goes on working', async () => {
    const taken = aLearner({ tenantId: t.id });
    await repo().insert(taken);
    const before = aLearner({ tenantId: t.id });
    const batch = [
      ...Array.from({ length: 999 }, () => aLearner({ tenantId: t.id })),
      { ...aLearner({ tenantId: t.id }), email: taken.email!.toUpperCase() },
    ];
    await expect(
      uow().run(async (tx) => {
        await tx.learners.insert(before);
        await tx.learners.insertMany(batch);
      }),
    ).rejects.toMatchObject({ kind: 'conflict', code: 'duplicate_email' });
    await expect(repo().findById(t.id, before.id)).resolves.toBeNull();
    await expect(
      repo().findByIds(
        t.id,
        batch.map((l) => l.id),
      ),
    ).resolves.toEqual([]);
    const after = aLearner({ tenantId: t.id });
    await uow().run((tx) => tx.learners.insertMany([after]));
    await expect(repo().findById(t.id, after.id)).resolves.toEqual(after);
  });

  it('refuses a duplicate ID number, and a duplicate email case-insensitively, within a tenant only', async () => {
    const l = aLearner({ tenantId: t.id, email: 'dup@example.co.za' });
    await repo().insert(l);
    await expect(repo().insert(aLearner({ tenantId: t.id, idNumber: l.idNumber }))).rejects.toMatchObject({
      kind: 'conflict',
      code: 'duplicate_id_number',
    });
    await expect(repo().insert(aLearner({ tenantId: t.id, email: 'DUP@Example.co.za' }))).rejects.toMatchObject({
      kind: 'conflict',
      code: 'duplicate_email',
    });
    await expect(
      repo().insert(aLearner({ tenantId: other.id, idNumber: l.idNumber, email: 'dup@example.co.za' })),
    ).resolves.toBeUndefined();
  });

  it('keeps learners with an alternative ID; refuses a duplicate (type, number) in a tenant only', async () => {
    const foreign = (o: Partial<LearnerSnapshot> & { tenantId: string }) =>
      aLearner({ idNumber: null, citizenship: null, alternateId: 'P1234567', alternateIdType: 'passport', ...o });
    const a = foreign({ tenantId: t.id, nationalityCode: 'ZIM', gender: 'F', dateOfBirth: '1995-03-02' });
    await repo().insert(a);
    await expect(repo().findById(t.id, a.id)).resolves.toEqual(a);
    await repo().insert(foreign({ tenantId: t.id, alternateId: 'P7654321' })); // NULL ID numbers never collide
    await expect(repo().insert(foreign({ tenantId: t.id }))).rejects.toMatchObject({
      kind: 'conflict',
      code: 'duplicate_alternate_id',
    });
    await expect(repo().insert(foreign({ tenantId: t.id, alternateIdType: 'refugee' }))).resolves.toBeUndefined();
    await expect(repo().insert(foreign({ tenantId: other.id }))).resolves.toBeUndefined();
  });

  it('allows many learners without an email', async () => {
    await repo().insert(aLearner({ tenantId: t.id, email: null }));
    await expect(repo().insert(aLearner({ tenantId: t.id, email: null }))).resolves.toBeUndefined();
  });

  it('updates, with the same conflicts as insert', async () => {
    const a = aLearner({ tenantId: t.id, email: 'upd-a@example.co.za' });
    const b = aLearner({ tenantId: t.id, email: 'upd-b@example.co.za' });
    await repo().insert(a);
    await repo().insert(b);
    await repo().update({ ...a, firstName: 'Changed', updatedAt: at(59) });
    await expect(repo().findById(t.id, a.id)).resolves.toMatchObject({
      firstName: 'Changed',
      updatedAt: at(59),
      createdAt: a.createdAt,
    });
    await expect(repo().update({ ...b, idNumber: a.idNumber })).rejects.toMatchObject({ code: 'duplicate_id_number' });
    await expect(repo().update({ ...b, email: 'UPD-A@example.co.za' })).rejects.toMatchObject({
      code: 'duplicate_email',
    });
    await expect(repo().findById(t.id, b.id)).resolves.toEqual(b);
  });

  it("update of an absent, erased or other tenant's learner is not_found", async () => {
    const l = aLearner({ tenantId: t.id });
    await expect(repo().update(l)).rejects.toMatchObject({ kind: 'not_found' });
    await repo().insert(l);
    await expect(repo().update({ ...l, tenantId: other.id })).rejects.toMatchObject({ kind: 'not_found' });
    await repo().erase(t.id, l.id, at(1));
    await expect(repo().update(l)).rejects.toMatchObject({ kind: 'not_found' });
  });
});
