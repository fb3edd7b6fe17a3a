import { beforeAll, expect, it } from 'vitest';
import type { LearnerFilter, LearnerSnapshot, PageRequest, TenantSnapshot } from '@fundi/domain';
import { aLearner, aTenant } from '@fundi/domain/testing';
import { describeEachStorage } from '../testing/each-storage.js';

const at = (minute: number) => new Date(Date.UTC(2026, 0, 10, 8, minute)).toISOString();

describeEachStorage('LearnerRepository contract', (get) => {
  let t: TenantSnapshot;
  let other: TenantSnapshot;
  const repo = () => get().repos.learners;
  const uow = () => get().uow;

  beforeAll(async () => {
    t = aTenant();
    other = aTenant();
    await get().repos.tenants.insert(t);
    await get().repos.tenants.insert(other);
  });

  async function fresh(): Promise<TenantSnapshot> {
    const x = aTenant();
    await get().repos.tenants.insert(x);
    return x;
  }

  it('round-trips every field, including addresses and the consent flag', async () => {
    const l = aLearner({
      tenantId: t.id,
      middleName: 'Zanele',
      mobile: '+27821234567',
      phone: '0111234567',
      title: 'Ms',
      equityCode: 'BA',
      nationalityCode: 'SA',
      homeLanguageCode: 'Zul',
      citizenResidentStatusCode: 'SA',
      socioeconomicStatusCode: '01',
      disabilityStatusCode: 'N',
      disabilityRating: '01',
      immigrantStatus: '01',
      provinceCode: '7',
      statssaAreaCode: 'A123',
      homeAddress: { line1: '1 Main Rd', line2: null, line3: 'Soweto', postalCode: '1804' },
      postalAddress: { line1: 'PO Box 1', line2: null, line3: null, postalCode: '2000' },
      popiActAgree: false,
      popiActDate: '2026-01-01',
      employer: 'Acme',
      employeeRef: 'E-1',
      department: 'Ops',
      jobTitle: 'Clerk',
    });
    await repo().insert(l);
    await expect(repo().findById(t.id, l.id)).resolves.toEqual(l);
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
    const elsewhere = await repo().findTaken(other.id, [l.idNumber!], [l.email!], ['passport:PX990011']);
    expect(elsewhere.idNumbers.size + elsewhere.emails.size + elsewhere.alternates.size).toBe(0);
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

  it('filters lists by search (names, email, ID or alternative ID prefix), employeeRef and created range', async () => {
    const x = await fresh();
    const zola = aLearner({
      tenantId: x.id,
      firstName: 'Zola',
      lastName: 'Mokoena',
      email: 'zm@example.co.za',
      idNumber: '9001049818080',
      employeeRef: 'E1',
      createdAt: at(1),
    });
    const pieter = aLearner({
      tenantId: x.id,
      firstName: 'Pieter',
      lastName: 'Botha',
      email: 'PB@Corp.co.za',
      idNumber: '7311190013080',
      employeeRef: 'E2',
      createdAt: at(2),
    });
    const naledi = aLearner({
      tenantId: x.id,
      firstName: 'Naledi',
      lastName: 'Zulu',
      email: 'n_z%@example.co.za',
      idNumber: '8001015009087',
      employeeRef: 'E1',
      createdAt: at(3),
    });
    for (const l of [zola, pieter, naledi]) await repo().insert(l);
    await repo().insert(aLearner({ tenantId: other.id, firstName: 'Zola' }));
    const ids = async (filter: LearnerFilter) =>
      (await repo().list(x.id, filter, { kind: 'offset', offset: 0, limit: 100 })).items.map((l) => l.id);
    await expect(ids({})).resolves.toEqual([zola.id, pieter.id, naledi.id]);
    await expect(ids({ search: 'zol' })).resolves.toEqual([zola.id]);
    await expect(ids({ search: 'ZULU' })).resolves.toEqual([naledi.id]);
    await expect(ids({ search: 'corp.co' })).resolves.toEqual([pieter.id]);
    await expect(ids({ search: '7311' })).resolves.toEqual([pieter.id]);
    await expect(ids({ search: '9818080' })).resolves.toEqual([]);
    const tendai = aLearner({
      tenantId: x.id,
      firstName: 'Tendai',
      idNumber: null,
      citizenship: null,
      alternateId: 'FN99123',
      alternateIdType: 'passport',
      createdAt: at(4),
    });
    await repo().insert(tendai);
    await expect(ids({ search: 'fn99' })).resolves.toEqual([tendai.id]);
    await expect(ids({ search: '99123' })).resolves.toEqual([]);
    await repo().erase(x.id, tendai.id, at(5));
    await expect(ids({ search: '%' })).resolves.toEqual([naledi.id]);
    await expect(ids({ search: '_' })).resolves.toEqual([naledi.id]);
    await expect(ids({ employeeRef: 'E1' })).resolves.toEqual([zola.id, naledi.id]);
    await expect(ids({ createdFrom: at(2) })).resolves.toEqual([pieter.id, naledi.id]);
    await expect(ids({ createdTo: at(2) })).resolves.toEqual([zola.id, pieter.id]);
    await expect(ids({ createdFrom: at(2), createdTo: at(2), employeeRef: 'E2', search: 'piet' })).resolves.toEqual([
      pieter.id,
    ]);
    await expect(
      repo().list(x.id, { employeeRef: 'E1' }, { kind: 'offset', offset: 0, limit: 1 }),
    ).resolves.toMatchObject({ total: 2, hasMore: true });
    // Incremental sync: a later change moves a learner into the window of its update, whatever its creation.
    await repo().update({ ...zola, department: 'Ops', updatedAt: at(5) });
    await expect(ids({ updatedFrom: at(4) })).resolves.toEqual([zola.id]);
    await expect(ids({ updatedFrom: at(2), updatedTo: at(3) })).resolves.toEqual([pieter.id, naledi.id]);
    await expect(ids({ updatedTo: at(1) })).resolves.toEqual([]);
  });

  it('pages by cursor and by offset, in id order, with the filtered total', async () => {
    const x = await fresh();
    const made: LearnerSnapshot[] = [];
    for (let i = 0; i < 7; i++) {
      const l = aLearner({ tenantId: x.id });
      made.push(l);
      await repo().insert(l);
    }
    const sorted = made.map((l) => l.id).sort();
    const walk = async (next: (p: { items: LearnerSnapshot[] } | null) => PageRequest | null) => {
      const seen: string[] = [];
      let req = next(null);
      while (req) {
        const p = await repo().list(x.id, {}, req);
        expect(p.total).toBe(7);
        seen.push(...p.items.map((l) => l.id));
        req = p.hasMore ? next(p) : null;
      }
      return seen;
    };
    let offset = 0;
    await expect(
      walk((p) =>
        p ? { kind: 'cursor', after: p.items.at(-1)!.id, limit: 3 } : { kind: 'cursor', after: null, limit: 3 },
      ),
    ).resolves.toEqual(sorted);
    await expect(walk((p) => ({ kind: 'offset', offset: p ? (offset += 3) : 0, limit: 3 }))).resolves.toEqual(sorted);
    await expect(repo().list(x.id, {}, { kind: 'offset', offset: 7, limit: 3 })).resolves.toMatchObject({
      items: [],
      total: 7,
      hasMore: false,
    });
    await expect(repo().list(x.id, {}, { kind: 'cursor', after: sorted[5]!, limit: 1 })).resolves.toMatchObject({
      items: [{ id: sorted[6] }],
      hasMore: false,
    });
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
