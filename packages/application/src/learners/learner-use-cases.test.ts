import { beforeEach, describe, expect, it } from 'vitest';
import { aLearnerInput, anIdNumber } from '@fundi/domain/testing';
import { anActor, fakeDeps } from '../testing/fakes.js';
import { EraseLearner } from './erase-learner.js';
import { GetLearner } from './get-learner.js';
import { ListLearners } from './list-learners.js';
import { RegisterLearner } from './register-learner.js';
import { UpdateLearner } from './update-learner.js';

describe('learner use cases (in-memory fakes)', () => {
  let d: ReturnType<typeof fakeDeps>;
  const me = anActor('ten_a');
  const them = anActor('ten_b');
  let register: RegisterLearner;
  beforeEach(() => {
    d = fakeDeps();
    register = new RegisterLearner(d);
  });
  const events = (tenantId = 'ten_a') => d.repos.outbox.list(tenantId, { limit: 100 });
  const audit = (tenantId = 'ten_a') => d.repos.audit.list(tenantId, { limit: 100 });

  it('register: stores the learner, audits it and emits learner.created with the view', async () => {
    const view = await register.execute(me, aLearnerInput({ idNumber: '9001049818080', mobile: '0821234567' }));
    expect(view).toMatchObject({
      idNumber: '9001049818080',
      dateOfBirth: '1990-01-04',
      gender: 'M',
      citizenship: 'citizen',
      mobile: '+27821234567',
    });
    expect(view.id).toMatch(/^lrn_[0-9a-z]{26}$/);
    expect(view).not.toHaveProperty('tenantId');
    expect(view.createdAt).toBe(d.clock.now().toISOString());
    await expect(events()).resolves.toMatchObject([
      { type: 'learner.created', data: view, occurredAt: view.createdAt },
    ]);
    await expect(audit()).resolves.toMatchObject([{ action: 'learner.created', resourceId: view.id, actor: me.id }]);
  });

  it('register: invalid input writes nothing', async () => {
    await expect(register.execute(me, { firstName: 'X' })).rejects.toMatchObject({ kind: 'invalid' });
    await expect(events()).resolves.toEqual([]);
    expect(d.store.tables.learners.size).toBe(0);
  });

  it('register: duplicate ID number and email (any case) are conflicts, across tenants they are not', async () => {
    const first = aLearnerInput({ email: 'Same@Example.co.za' });
    await register.execute(me, first);
    await expect(register.execute(me, aLearnerInput({ idNumber: first.idNumber }))).rejects.toMatchObject({
      kind: 'conflict',
      code: 'duplicate_id_number',
    });
    await expect(register.execute(me, aLearnerInput({ email: 'same@example.CO.ZA' }))).rejects.toMatchObject({
      kind: 'conflict',
      code: 'duplicate_email',
    });
    await expect(register.execute(them, first)).resolves.toMatchObject({ idNumber: first.idNumber });
    await expect(events()).resolves.toHaveLength(1);
  });

  it('get: found for its tenant, not_found for another or an unknown id', async () => {
    const v = await register.execute(me, aLearnerInput());
    const get = new GetLearner(d);
    await expect(get.execute(me, v.id)).resolves.toEqual(v);
    await expect(get.execute(them, v.id)).rejects.toMatchObject({ kind: 'not_found' });
    await expect(get.execute(me, 'lrn_nope')).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('list: filters, pages and refuses createdTo before createdFrom', async () => {
    const a = await register.execute(me, aLearnerInput({ firstName: 'Ayanda', employeeRef: 'E1' }));
    d.clock.advance(60_000);
    const b = await register.execute(me, aLearnerInput({ firstName: 'Bongani' }));
    await register.execute(them, aLearnerInput({ firstName: 'Ayanda' }));
    const list = new ListLearners(d);
    const page = { kind: 'offset', offset: 0, limit: 10 } as const;
    await expect(list.execute(me, {}, page)).resolves.toMatchObject({ total: 2, items: [{ id: a.id }, { id: b.id }] });
    await expect(list.execute(me, { search: 'ayan' }, page)).resolves.toMatchObject({
      total: 1,
      items: [{ id: a.id }],
    });
    await expect(list.execute(me, { employeeRef: 'E1' }, page)).resolves.toMatchObject({ total: 1 });
    await expect(list.execute(me, { createdFrom: b.createdAt }, page)).resolves.toMatchObject({
      items: [{ id: b.id }],
    });
    await expect(list.execute(me, {}, { kind: 'cursor', after: a.id, limit: 1 })).resolves.toMatchObject({
      items: [{ id: b.id }],
      hasMore: false,
    });
    await expect(
      list.execute(me, { createdFrom: '2026-02-01T00:00:00.000Z', createdTo: '2026-01-01T00:00:00.000Z' }, page),
    ).rejects.toMatchObject({ kind: 'invalid' });
    const items = (await list.execute(me, {}, page)).items;
    expect(items.every((l) => !('tenantId' in l))).toBe(true);
  });

  it('update: changes, audits the field names and emits only the changes', async () => {
    const v = await register.execute(me, aLearnerInput({ firstName: 'Thandi' }));
    d.clock.advance(1000);
    const update = new UpdateLearner(d);
    const out = await update.execute(me, v.id, { firstName: 'Lindiwe', mobile: '0721234567' });
    expect(out).toMatchObject({
      firstName: 'Lindiwe',
      mobile: '+27721234567',
      updatedAt: d.clock.now().toISOString(),
      createdAt: v.createdAt,
    });
    const evs = await events();
    expect(evs.at(-1)).toMatchObject({
      type: 'learner.updated',
      data: { id: v.id, changes: { firstName: 'Lindiwe', mobile: '+27721234567' } },
    });
    await expect(audit()).resolves.toMatchObject([
      { action: 'learner.updated', details: { fields: ['firstName', 'mobile'] } },
      { action: 'learner.created' },
    ]);
    const auditText = JSON.stringify(await audit());
    expect(auditText).not.toContain('Lindiwe');
  });

  it('update: a new ID number reports the facts derived from it as changes too', async () => {
    const v = await register.execute(me, aLearnerInput({ idNumber: '9001049818080' }));
    const next = anIdNumber({ yy: 85, mm: 5, dd: 15, sequence: 1234, citizenship: 1 });
    await new UpdateLearner(d).execute(me, v.id, { idNumber: next });
    const evs = await events();
    expect(evs.at(-1)!.data.changes).toEqual({
      idNumber: next,
      dateOfBirth: '1985-05-15',
      gender: 'F',
      citizenship: 'permanent_resident',
    });
  });

  it('update: a no-op records nothing and keeps updatedAt', async () => {
    const v = await register.execute(me, aLearnerInput({ firstName: 'Thandi' }));
    d.clock.advance(1000);
    const out = await new UpdateLearner(d).execute(me, v.id, { firstName: 'Thandi', idNumber: v.idNumber });
    expect(out).toEqual(v);
    await expect(events()).resolves.toHaveLength(1);
    await expect(audit()).resolves.toHaveLength(1);
  });

  it('update: invalid input, conflicts and another tenant change nothing', async () => {
    const a = await register.execute(me, aLearnerInput({ email: 'a@example.co.za' }));
    const b = await register.execute(me, aLearnerInput());
    const update = new UpdateLearner(d);
    await expect(update.execute(me, b.id, { email: 'A@EXAMPLE.co.za' })).rejects.toMatchObject({
      code: 'duplicate_email',
    });
    await expect(update.execute(me, b.id, { idNumber: a.idNumber })).rejects.toMatchObject({
      code: 'duplicate_id_number',
    });
    await expect(update.execute(me, b.id, { provinceCode: 'GP' })).rejects.toMatchObject({ kind: 'invalid' });
    await expect(update.execute(them, b.id, { firstName: 'X' })).rejects.toMatchObject({ kind: 'not_found' });
    await expect(new GetLearner(d).execute(me, b.id)).resolves.toEqual(b);
    await expect(events()).resolves.toHaveLength(2);
  });

  it('erase: learner gone, audited as learner.erased, ID number free again; twice or another tenant is not_found', async () => {
    const v = await register.execute(me, aLearnerInput());
    const erase = new EraseLearner(d);
    await expect(erase.execute(them, v.id)).rejects.toMatchObject({ kind: 'not_found' });
    await erase.execute(me, v.id);
    await expect(erase.execute(me, v.id)).rejects.toMatchObject({ kind: 'not_found' });
    await expect(new GetLearner(d).execute(me, v.id)).rejects.toMatchObject({ kind: 'not_found' });
    await expect(audit()).resolves.toMatchObject([
      { action: 'learner.erased', resourceId: v.id },
      { action: 'learner.created' },
    ]);
    const row = d.store.tables.learners.get(v.id)!;
    expect(row.firstName ?? null).toBeNull();
    expect(row.idNumber ?? null).toBeNull();
    expect(row.email ?? null).toBeNull();
    await expect(register.execute(me, aLearnerInput({ idNumber: v.idNumber, email: v.email }))).resolves.toMatchObject({
      idNumber: v.idNumber,
    });
  });
});
