import { beforeAll, expect, it } from 'vitest';
import { newId, type TenantSnapshot } from '@fundi/domain';
import type { NotificationSnapshot } from '@fundi/domain/notifications';
import { aTenant } from '@fundi/domain/testing';
import { describeEachStorage } from '../testing/each-storage.js';
import { CORE_STORAGE } from '../testing/test-databases.js';
import { notificationStorage } from './sql-notifications.js';

const PARTS = [...CORE_STORAGE, notificationStorage] as const;
const at = (minute: number) => new Date(Date.UTC(2026, 5, 1, 8, minute)).toISOString();

function aNotification(tenantId: string, o: Partial<NotificationSnapshot> = {}): NotificationSnapshot {
  return {
    id: newId('ntf'),
    tenantId,
    recipientType: 'learner',
    recipientId: 'lrn_1',
    channel: 'email',
    template: 'welcome',
    learnerId: o.recipientType === 'user' ? null : (o.recipientId ?? 'lrn_1'),
    to: 'thandi@example.org',
    content: { kind: 'email', subject: 'Welcome', html: '<p>Hi</p>', text: 'Hi' },
    status: 'queued',
    history: [{ status: 'queued', at: at(0), detail: null }],
    attempts: 0,
    providerMessageId: null,
    trigger: null,
    dedupeKey: null,
    createdBy: 'key_1',
    createdAt: at(0),
    updatedAt: at(0),
    ...o,
  };
}

describeEachStorage(
  'Notification repositories contract',
  (get) => {
    let t: TenantSnapshot;
    let other: TenantSnapshot;
    beforeAll(async () => {
      t = aTenant();
      other = aTenant();
      await get().repos.tenants.insert(t);
      await get().repos.tenants.insert(other);
    });

    it('round-trips a notification, updates it whole, and hides it from another tenant', async () => {
      const repo = get().repos.notifications;
      const n = aNotification(t.id);
      expect(await repo.insertMany([n])).toEqual([n]);
      expect(await repo.findById(t.id, n.id)).toEqual(n);
      expect(await repo.findById(other.id, n.id)).toBeNull();
      const sent: NotificationSnapshot = {
        ...n,
        status: 'sent',
        attempts: 1,
        providerMessageId: '<abc@fundi>',
        history: [...n.history, { status: 'sent', at: at(1), detail: 'accepted' }],
        updatedAt: at(1),
      };
      await repo.update(sent);
      expect(await repo.findById(t.id, n.id)).toEqual(sent);
      expect(await repo.findByProviderMessageId('email', '<abc@fundi>')).toEqual(sent);
      expect(await repo.findByProviderMessageId('whatsapp', '<abc@fundi>')).toBeNull();
      await expect(repo.update({ ...sent, tenantId: other.id })).rejects.toMatchObject({ kind: 'not_found' });
    });

    it('writes many send outcomes at once, to queued rows only, leaving other fields and other tenants alone', async () => {
      const repo = get().repos.notifications;
      const a = aNotification(t.id);
      const b = aNotification(t.id, {
        channel: 'whatsapp',
        content: { kind: 'whatsapp', template: 'x', language: 'en', parameters: ['1'] },
      });
      const foreign = aNotification(other.id);
      await repo.insertMany([a, b, foreign]);
      const sentA = {
        ...a,
        status: 'sent' as const,
        attempts: 1,
        providerMessageId: '<m1@x>',
        history: [...a.history, { status: 'sent' as const, at: at(2), detail: null }],
        updatedAt: at(2),
      };
      const failedB = {
        ...b,
        status: 'failed' as const,
        attempts: 3,
        content: null,
        history: [...b.history, { status: 'failed' as const, at: at(3), detail: '131026: undeliverable' }],
        updatedAt: at(3),
      };
      const moved = aNotification(t.id, { status: 'sent', attempts: 1 });
      await repo.insertMany([moved]);
      await repo.updateOutcomes(t.id, [
        sentA,
        failedB,
        { ...foreign, status: 'sent' },
        aNotification(t.id),
        { ...moved, status: 'failed', attempts: 2 },
      ]);
      expect(await repo.findById(t.id, moved.id)).toEqual(moved);
      expect(await repo.findById(t.id, a.id)).toEqual(sentA);
      expect(await repo.findById(t.id, b.id)).toEqual(failedB);
      expect(await repo.findById(other.id, foreign.id)).toEqual(foreign);
      await repo.updateOutcomes(t.id, []);
    });

    it('leaves out notifications whose dedupe key the tenant already has, also within one call', async () => {
      const repo = get().repos.notifications;
      const key = `welcome:${newId('evt')}:lrn_1`;
      const first = aNotification(t.id, { dedupeKey: key });
      expect(await repo.insertMany([first])).toEqual([first]);
      const again = aNotification(t.id, { dedupeKey: key });
      const fresh = aNotification(t.id, { dedupeKey: `${key}:2` });
      const twice = aNotification(t.id, { dedupeKey: `${key}:2` });
      const inOther = aNotification(other.id, { dedupeKey: key });
      const noKey = aNotification(t.id);
      const got = await repo.insertMany([again, fresh, twice, inOther, noKey]);
      expect(got.map((n) => n.id)).toEqual([fresh.id, inOther.id, noKey.id]);
      expect(await repo.findById(t.id, again.id)).toBeNull();
    });

    it('inserts many in chunks and finds them again', async () => {
      const repo = get().repos.notifications;
      const many = Array.from({ length: 1001 }, (_, i) => aNotification(t.id, { recipientId: `lrn_bulk_${i}` }));
      expect((await repo.insertMany(many)).length).toBe(1001);
      const found = await repo.findMany(
        t.id,
        many.map((n) => n.id),
      );
      expect(found.length).toBe(1001);
      expect(
        await repo.findMany(
          other.id,
          many.map((n) => n.id),
        ),
      ).toEqual([]);
    });

    it('lists with filters, oldest first, in both paging styles', async () => {
      const repo = get().repos.notifications;
      const tenant = aTenant();
      await get().repos.tenants.insert(tenant);
      const a = aNotification(tenant.id, { recipientId: 'usr_a', channel: 'whatsapp', template: 'assessment_result' });
      const b = aNotification(tenant.id, { recipientId: 'usr_b', status: 'bounced' });
      const c = aNotification(tenant.id, { recipientId: 'usr_a', status: 'skipped' });
      await repo.insertMany([a, b, c]);
      const all = await repo.list(tenant.id, {}, { kind: 'offset', offset: 0, limit: 10 });
      expect(all.items.map((n) => n.id)).toEqual([a.id, b.id, c.id]);
      expect(all.total).toBe(3);
      const byRecipient = await repo.list(
        tenant.id,
        { recipientId: 'usr_a' },
        { kind: 'cursor', limit: 1, after: null },
      );
      expect(byRecipient.items.map((n) => n.id)).toEqual([a.id]);
      expect(byRecipient.hasMore).toBe(true);
      const next = await repo.list(tenant.id, { recipientId: 'usr_a' }, { kind: 'cursor', limit: 1, after: a.id });
      expect(next.items.map((n) => n.id)).toEqual([c.id]);
      expect(
        (await repo.list(tenant.id, { channel: 'whatsapp' }, { kind: 'offset', offset: 0, limit: 10 })).total,
      ).toBe(1);
      expect(
        (await repo.list(tenant.id, { status: 'bounced' }, { kind: 'offset', offset: 0, limit: 10 })).items[0]!.id,
      ).toBe(b.id);
      expect(
        (await repo.list(tenant.id, { template: 'assessment_result' }, { kind: 'offset', offset: 0, limit: 10 })).total,
      ).toBe(1);
    });

    it('redacts a learner: messages to them lose address, content and details; staff messages about them lose content and details', async () => {
      const repo = get().repos.notifications;
      const failed = { status: 'queued' as const, at: at(1), detail: 'soft_bounce (452): <erased@example.org> full' };
      const to = aNotification(t.id, { recipientId: 'lrn_erased', history: [...aNotification(t.id).history, failed] });
      const about = aNotification(t.id, {
        recipientType: 'user',
        recipientId: 'usr_assessor',
        learnerId: 'lrn_erased',
        template: 'new_evidence',
        to: 'assessor@example.org',
      });
      const unrelated = aNotification(t.id, { recipientId: 'lrn_kept' });
      await repo.insertMany([to, about, unrelated]);
      expect(await repo.redactLearner(t.id, 'lrn_erased')).toBe(2);
      const bare = (h: NotificationSnapshot['history']) => h.map((e) => ({ ...e, detail: null }));
      expect(await repo.findById(t.id, to.id)).toEqual({ ...to, to: null, content: null, history: bare(to.history) });
      expect(await repo.findById(t.id, about.id)).toEqual({ ...about, content: null, history: bare(about.history) });
      expect(await repo.findById(t.id, unrelated.id)).toEqual(unrelated);
      expect(await repo.redactLearner(other.id, 'lrn_erased')).toBe(0);
      expect((await repo.redactedAmong(t.id, [to.id, about.id, unrelated.id])).sort()).toEqual(
        [to.id, about.id].sort(),
      );
      expect(await repo.redactedAmong(other.id, [to.id, about.id])).toEqual([]);
      expect(await repo.idsAbout(t.id, 'lrn_erased')).toEqual([to.id, about.id].sort());
      expect(await repo.idsAbout(other.id, 'lrn_erased')).toEqual([]);
    });

    it("finds the API's staff messages that name the learner, in any letter case, and nothing else", async () => {
      const repo = get().repos.notifications;
      const content = (text: string) => ({ kind: 'email' as const, subject: 'About a learner', html: text, text });
      const staff = { recipientType: 'user' as const, recipientId: 'usr_staff', learnerId: null };
      const named = aNotification(t.id, { ...staff, content: content('Please call THANDI MENTIONED today') });
      const byEmail = aNotification(t.id, { ...staff, content: content('Mail thandi.m@example.org back') });
      const other = aNotification(t.id, { ...staff, content: content('Please call Sipho Other today') });
      const fromTrigger = aNotification(t.id, {
        ...staff,
        trigger: 'quota_warning',
        content: content('Thandi Mentioned again'),
      });
      const otherTenant = aNotification(other.id, { ...staff, content: content('Thandi Mentioned') });
      const wild = aNotification(t.id, { ...staff, content: content('100% sure about Thandi_x') });
      await repo.insertMany([named, byEmail, other, fromTrigger, otherTenant, wild]);
      const mentions = ['Thandi Mentioned', 'thandi.m@example.org', '10% s', 'Thandi!x'];
      expect(await repo.redactLearner(t.id, 'lrn_named', mentions)).toBe(2);
      for (const n of [named, byEmail])
        expect(await repo.findById(t.id, n.id)).toMatchObject({ content: null, learnerId: 'lrn_named' });
      expect(await repo.idsAbout(t.id, 'lrn_named')).toEqual([named.id, byEmail.id].sort());
      for (const n of [other, fromTrigger, wild]) expect(await repo.findById(t.id, n.id)).toEqual(n);
      expect(await repo.findById(other.id, otherTenant.id)).toEqual(otherTenant);
    });

    it('never writes content or details back with an outcome: a send that ends after an erasure leaves them dropped', async () => {
      const repo = get().repos.notifications;
      const n = aNotification(t.id, { recipientId: 'lrn_erased_while_sending' });
      await repo.insertMany([n]);
      // The worker read the message (with its content) before the erasure and records its outcome after it.
      await repo.redactLearner(t.id, 'lrn_erased_while_sending');
      const bounced = { status: 'bounced' as const, at: at(5), detail: '550 <gone@example.org> unknown' };
      await repo.updateOutcomes(t.id, [
        { ...n, status: 'bounced', history: [...n.history, bounced], attempts: 1, updatedAt: at(5) },
      ]);
      expect(await repo.findById(t.id, n.id)).toMatchObject({
        status: 'bounced',
        to: null,
        content: null,
        attempts: 1,
        history: [
          { status: 'queued', at: at(0), detail: null },
          { status: 'bounced', at: at(5), detail: null },
        ],
      });
      const kept = aNotification(t.id);
      await repo.insertMany([kept]);
      const failed = { status: 'queued' as const, at: at(6), detail: 'attempt 1 failed' };
      await repo.updateOutcomes(t.id, [{ ...kept, history: [...kept.history, failed], updatedAt: at(6) }]);
      expect(await repo.findById(t.id, kept.id)).toMatchObject({
        content: kept.content,
        history: [...kept.history, failed],
      });
      const dropped = aNotification(t.id);
      await repo.insertMany([dropped]);
      await repo.updateOutcomes(t.id, [{ ...dropped, status: 'sent', content: null, updatedAt: at(7) }]);
      expect((await repo.findById(t.id, dropped.id))!.content).toBeNull();
    });
  },
  undefined,
  PARTS,
);
