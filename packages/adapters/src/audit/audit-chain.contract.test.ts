import { expect, it } from 'vitest';
import { newId, type DomainEvent } from '@fundi/domain';
import { AUDIT_GENESIS, checkChain, type AuditEntry } from '@fundi/domain/audit';
import { aTenant } from '@fundi/domain/testing';
import { describeEachStorage } from '../testing/each-storage.js';
import { platformStorage } from '../platform/platform-storage.js';
import { webhookStorage } from '../webhooks/webhook-storage.js';
import { auditStorage } from './audit-storage.js';

const entry = (tenantId: string, o: Partial<AuditEntry> = {}): AuditEntry => ({
  id: newId('aud'),
  tenantId,
  actor: 'key_x',
  action: 'learner.updated',
  resourceType: 'learner',
  resourceId: 'lrn_1',
  at: '2026-01-01T00:00:00.000Z',
  details: {},
  ...o,
});

describeEachStorage(
  'audit chain contract',
  (get, kind) => {
    it('chains concurrent writers of one tenant without a fork; each tenant has its own chain', async () => {
      const t = aTenant().id;
      const u = aTenant().id;
      await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          get().uow.run((tx) => tx.audit.record(entry(i % 3 === 0 ? u : t, { resourceId: `lrn_${i}` }))),
        ),
      );
      for (const [tenant, count] of [
        [t, 20],
        [u, 10],
      ] as const) {
        const { rows, personal } = await get().repos.auditTrail.chain(tenant, 0, 100);
        expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: count }, (_, i) => i + 1));
        const checked = checkChain(rows, { seq: 0, hash: AUDIT_GENESIS }, (id) =>
          personal.find((p) => p.entryId === id),
        );
        expect(checked.broken).toBeNull();
        expect(await get().repos.auditTrail.head(tenant)).toEqual(checked.prev);
      }
    });

    it("writes a change's events with its entry, concurrently, the chain whole and every event queued", async () => {
      const t = aTenant().id;
      const event = (i: number, j: number): DomainEvent => ({
        id: newId('evt'),
        tenantId: t,
        type: 'learner.updated',
        occurredAt: '2026-01-01T00:00:00.000Z',
        data: { i, j, note: 'Zoë "q" \\' },
        ...(j % 2 ? { subjectId: `lrn_${i}` } : {}),
      });
      // 0, 1, 2 or 3 events per change, and one change with more than the append's statement takes.
      const changes = Array.from({ length: 24 }, (_, i) => ({
        entry: entry(t, {
          resourceId: `lrn_${i}`,
          ...(i % 3 === 1 ? { learnerId: `lrn_${i}`, personal: { firstName: { from: 'A', to: `B${i}` } } } : {}),
        }),
        events: Array.from({ length: i === 5 ? 12 : i % 4 }, (_, j) => event(i, j)),
      }));
      await Promise.all(changes.map((c) => get().uow.run((tx) => tx.audit.record(c.entry, c.events))));
      const { rows, personal } = await get().repos.auditTrail.chain(t, 0, 100);
      expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
      const checked = checkChain(rows, { seq: 0, hash: AUDIT_GENESIS }, (id) => personal.find((p) => p.entryId === id));
      expect(checked.broken).toBeNull();
      expect(personal).toHaveLength(8);
      const events = changes.flatMap((c) => c.events).sort((a, b) => (a.id < b.id ? -1 : 1));
      await expect(get().repos.outbox.list(t, { limit: 100 })).resolves.toEqual(events);
      const queued = await get().repos.outboxFeed.takeUndispatched(1000, '2026-01-01T00:00:01.000Z');
      expect(queued.filter((e) => e.tenantId === t).map((e) => e.id)).toEqual(events.map((e) => e.id));
    });

    it('a change that fails leaves neither its entry nor its events, and the chain goes on', async () => {
      const t = aTenant().id;
      const ev: DomainEvent = {
        id: newId('evt'),
        tenantId: t,
        type: 'x.y',
        occurredAt: '2026-01-01T00:00:00.000Z',
        data: {},
      };
      await get().uow.run((tx) => tx.audit.record(entry(t), [ev]));
      await expect(
        get().uow.run(async (tx) => {
          await tx.audit.record(entry(t), [{ ...ev, id: newId('evt') }]);
          throw new Error('after the append');
        }),
      ).rejects.toThrow('after the append');
      if (kind !== 'memory')
        // The same event id again: the database refuses the statement, and with it the entry.
        await expect(get().uow.run((tx) => tx.audit.record(entry(t), [ev]))).rejects.toThrow();
      await get().uow.run((tx) => tx.audit.record(entry(t), []));
      const { rows } = await get().repos.auditTrail.chain(t, 0, 10);
      expect(rows.map((r) => r.seq)).toEqual([1, 2]);
      expect(checkChain(rows, { seq: 0, hash: AUDIT_GENESIS }, () => undefined).broken).toBeNull();
      await expect(get().repos.outbox.list(t, { limit: 10 })).resolves.toEqual([ev]);
    });

    it('lists the entries on any of several entities, of one learner, newest first', async () => {
      const t = aTenant().id;
      const on = (resourceId: string, learnerId = 'lrn_e') =>
        entry(t, { resourceType: 'enrolment', resourceId, learnerId, action: 'x.changed' });
      const [a, b, c, other] = [on('enr_a'), on('asm_b'), on('enr_c'), on('enr_a', 'lrn_f')];
      for (const e of [a, b, c, other]) await get().repos.audit.record(e);
      const page = await get().repos.auditTrail.list(
        t,
        { learnerId: 'lrn_e', entityIds: ['enr_a', 'asm_b'] },
        { kind: 'offset', offset: 0, limit: 10 },
      );
      expect(page.items.map((r) => r.id)).toEqual([a.id, b.id].sort().reverse());
      expect(page.total).toBe(2);
    });

    it('hashes non-ASCII, quoted and escaped text as the chain check does', async () => {
      const t = aTenant().id;
      const odd = {
        note: 'Thandé – “Ngcobo” 🙂 \\ "quoted" \n tab\t \r\b\f \u0001\u001f\u007f\u2028 </',
        nested: { ü: ['ß', null, 1.5] },
      };
      // Raw control characters in a column itself (not only inside the details' JSON) reach the hashed text as they
      // are, escaped there by the chain's JSON.
      await get().repos.audit.record(entry(t, { details: odd, ip: '::1', via: 'api', resourceId: odd.note }));
      await get().uow.run((tx) =>
        tx.audit.record(entry(t, { details: odd, changes: { emailOptOut: { from: false, to: true } } })),
      );
      await get().repos.audit.record(
        entry(t, { personal: { firstName: { from: 'Zoë', to: 'Zoé' } }, learnerId: 'lrn_z' }),
      );
      const { rows, personal } = await get().repos.auditTrail.chain(t, 0, 10);
      expect(rows.map((r) => r.seq)).toEqual([1, 2, 3]);
      const checked = checkChain(rows, { seq: 0, hash: AUDIT_GENESIS }, (id) => personal.find((p) => p.entryId === id));
      expect(checked.broken).toBeNull();
      expect(await get().repos.auditTrail.head(t)).toEqual(checked.prev);
    });

    it('keeps personal values apart, returns them with the entry, and forgets them for an erased learner', async () => {
      const t = aTenant().id;
      const personal = { firstName: { from: 'Thandi', to: 'Thandeka' } };
      const e = entry(t, { learnerId: 'lrn_p', personal, changes: { emailOptOut: { from: false, to: true } } });
      await get().repos.audit.record(e);
      await get().repos.audit.record(entry(t, { learnerId: 'lrn_q', resourceId: 'lrn_q', personal }));
      const page = await get().repos.auditTrail.list(
        t,
        { learnerId: 'lrn_p' },
        { kind: 'offset', offset: 0, limit: 10 },
      );
      expect(page.items).toMatchObject([
        { id: e.id, personalFields: ['firstName'], personalValues: personal, changes: e.changes },
      ]);
      expect(await get().repos.audit.forgetLearner(t, 'lrn_p')).toBe(1);
      const after = await get().repos.auditTrail.list(t, {}, { kind: 'cursor', after: null, limit: 10 });
      expect(after.items.map((r) => [r.learnerId, r.personalValues])).toEqual([
        ['lrn_q', personal],
        ['lrn_p', null],
      ]);
      const { rows } = await get().repos.auditTrail.chain(t, 0, 10);
      expect(checkChain(rows, { seq: 0, hash: AUDIT_GENESIS }, () => undefined).broken).toBeNull();
    });
  },
  undefined,
  [platformStorage, auditStorage, webhookStorage],
);
