import { beforeAll, expect, it } from 'vitest';
import { newId, type DomainEvent } from '@fundi/domain';
import type { AuditEntry } from '@fundi/domain/audit';
import { aTenant } from '@fundi/domain/testing';
import { describeEachStorage } from '../testing/each-storage.js';

const entry = (tenantId: string, o: Partial<AuditEntry> = {}): AuditEntry => ({
  id: newId('aud'),
  tenantId,
  actor: 'key_x',
  action: 'learner.updated',
  resourceType: 'learner',
  resourceId: 'lrn_1',
  at: '2026-01-01T00:00:00.000Z',
  details: { fields: ['firstName'] },
  ...o,
});
const event = (tenantId: string, o: Partial<DomainEvent> = {}): DomainEvent => ({
  id: newId('evt'),
  tenantId,
  type: 'learner.created',
  occurredAt: '2026-01-01T00:00:00.000Z',
  data: { id: 'lrn_1', nested: { a: [1, 2] } },
  ...o,
});

describeEachStorage('AuditLog contract', (get) => {
  let t: string;
  let u: string;
  beforeAll(async () => {
    t = aTenant().id;
    u = aTenant().id;
  });

  it('records and lists newest first, per tenant, filtered by resource, limited', async () => {
    const first = entry(t, { resourceId: 'lrn_a' });
    const second = entry(t, { resourceId: 'lrn_b', details: {} });
    const third = entry(t, { resourceId: 'lrn_a', action: 'learner.erased' });
    for (const e of [first, second, third, entry(u)]) await get().repos.audit.record(e);
    await expect(get().repos.audit.list(t, { limit: 10 })).resolves.toEqual([third, second, first]);
    await expect(get().repos.audit.list(t, { resourceId: 'lrn_a', limit: 10 })).resolves.toEqual([third, first]);
    await expect(get().repos.audit.list(t, { limit: 1 })).resolves.toEqual([third]);
    await expect(get().repos.audit.list('ten_none', { limit: 10 })).resolves.toEqual([]);
  });
});

describeEachStorage('Outbox contract', (get) => {
  it('adds and lists oldest first, per tenant, by time and type, limited', async () => {
    const t = aTenant().id;
    const a = event(t, { occurredAt: '2026-01-01T00:00:00.000Z' });
    const b = event(t, { type: 'learner.updated', occurredAt: '2026-01-02T00:00:00.000Z' });
    const c = event(t, { type: 'learner.erased', occurredAt: '2026-01-03T00:00:00.000Z' });
    for (const e of [a, b, c, event(aTenant().id)]) await get().repos.outbox.add(e);
    await expect(get().repos.outbox.list(t, { limit: 10 })).resolves.toEqual([a, b, c]);
    await expect(get().repos.outbox.list(t, { since: '2026-01-02T00:00:00.000Z', limit: 10 })).resolves.toEqual([b, c]);
    await expect(
      get().repos.outbox.list(t, { types: ['learner.created', 'learner.erased'], limit: 10 }),
    ).resolves.toEqual([a, c]);
    await expect(get().repos.outbox.list(t, { limit: 2 })).resolves.toEqual([a, b]);
  });
});
