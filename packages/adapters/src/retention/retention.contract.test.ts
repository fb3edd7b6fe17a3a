import { Readable } from 'node:stream';
import {
  EncryptedFileVault,
  MasterKeyring,
  RunRetention,
  jobRetention,
  type RetentionPolicy,
  type RetentionTask,
} from '@fundi/application';
import { sessionRetention } from '@fundi/application/staff';
import { webhookRetention } from '@fundi/application/webhooks';
import { hrLogRetention } from '@fundi/application/hr-sync';
import { importRetention } from '@fundi/application/imports';
import { notificationRetention } from '@fundi/application/notifications';
import { newId } from '@fundi/domain';
import type { AuditEntry } from '@fundi/domain/audit';
import type { HrEventEntry } from '@fundi/domain/hr-sync';
import type { ImportSnapshot } from '@fundi/domain/imports';
import type { NotificationSnapshot, NotificationState } from '@fundi/domain/notifications';
import { aTenant } from '@fundi/domain/testing';
import { MemoryFileStore } from '@fundi/memory';
import { FixedClock, DOCUMENTED_RETENTION } from '@fundi/testing';
import { expect, it } from 'vitest';
import { hrSyncStorage } from '../hr-sync/sql-hr-sync.js';
import { importStorage } from '../imports/sql-imports.js';
import { notificationStorage } from '../notifications/sql-notifications.js';
import { platformStorage } from '../platform/platform-storage.js';
import { aDelivery, anEvent, aSubscription, outcome } from '../webhooks/webhook-fixtures.js';
import { staffStorage } from '../staff/staff-storage.js';
import { tenantStorage } from '../tenants/tenant-storage.js';
import { describeEachStorage } from '../testing/each-storage.js';
import { webhookStorage } from '../webhooks/webhook-storage.js';

const DAY = 86_400_000;
const PARTS = [
  platformStorage,
  tenantStorage,
  webhookStorage,
  notificationStorage,
  hrSyncStorage,
  staffStorage,
  importStorage,
] as const;

/**
 * The retention job's rules over every storage (docs/architecture.md, "Retention"): what is past its cut-off goes, in
 * batches; what is still referenced stays whatever its age; the audit log is never touched. Each test has its own
 * tenant and its own year, so what one test prunes never decides another's assertions.
 */
describeEachStorage(
  'Retention: one job prunes every kind',
  (get) => {
    const files = new MemoryFileStore();
    const vault = new EncryptedFileVault(files, new MasterKeyring([Buffer.alloc(32, 9)]));

    /** A world `year`: "now" is 1 July, "old" 200 days earlier (past every default but the notifications' year). */
    async function world(year: number) {
      const now = new Date(`${year}-07-01T00:00:00.000Z`);
      const old = (days = 200) => new Date(now.getTime() - days * DAY).toISOString();
      const recent = new Date(now.getTime() - DAY).toISOString();
      const tenant = aTenant();
      await get().repos.tenants.insert(tenant);
      const { repos, uow } = get();
      const tasks: RetentionTask[] = [
        ...jobRetention({ repos }),
        ...webhookRetention({ repos }),
        ...notificationRetention({ repos }),
        ...hrLogRetention({ repos }),
        ...sessionRetention({ repos }),
        ...importRetention({ repos, uow, files: vault }),
      ];
      const run = (batch = 2, policy: RetentionPolicy = DOCUMENTED_RETENTION) =>
        new RunRetention({ tasks, policy, clock: new FixedClock(now), batch }).execute();
      return { now, old, recent, tenant, repos, uow, run };
    }

    const aJobAt = async (w: Awaited<ReturnType<typeof world>>, doneAt: string | null) => {
      const kind = `k-${Math.random()}`;
      const job = await w.repos.jobs.enqueue({
        id: newId('job'),
        kind,
        lane: 'short',
        payload: { tenantId: w.tenant.id },
        dueAt: w.old(400),
        maxAttempts: 3,
        idempotencyKey: null,
        createdAt: w.old(400),
      });
      if (doneAt) {
        await w.uow.run((tx) =>
          tx.jobs.claimDue({
            owner: 'o',
            lane: 'short',
            kinds: [kind],
            now: w.old(400),
            leaseUntil: w.old(399),
            limit: 1,
            backgroundWaitMs: 0,
          }),
        );
        await w.uow.run((tx) => tx.jobs.finish(job.id, 'o', doneAt, null));
      }
      return job.id;
    };

    const aNotification = (
      w: Awaited<ReturnType<typeof world>>,
      status: NotificationState,
      updatedAt: string,
    ): NotificationSnapshot => ({
      id: newId('ntf'),
      tenantId: w.tenant.id,
      recipientType: 'learner',
      recipientId: 'lrn_1',
      learnerId: 'lrn_1',
      channel: 'email',
      template: 'welcome',
      to: 'a@example.org',
      content: null,
      status,
      history: [{ status, at: updatedAt, detail: null }],
      attempts: 1,
      providerMessageId: null,
      trigger: null,
      dedupeKey: null,
      createdBy: 'system',
      createdAt: updatedAt,
      updatedAt,
    });

    const anHrEntry = (w: Awaited<ReturnType<typeof world>>, receivedAt: string): HrEventEntry => ({
      id: newId('hre', Date.parse(receivedAt)),
      tenantId: w.tenant.id,
      eventKey: `id:${Math.random()}`,
      hrEventId: null,
      event: 'employee.updated',
      receivedAt,
      result: 'failed',
      response: null,
      error: null,
      learnerId: null,
      data: null,
      redacted: false,
    });

    const anImport = async (
      w: Awaited<ReturnType<typeof world>>,
      status: ImportSnapshot['status'],
      completedAt: string | null,
    ): Promise<ImportSnapshot> => {
      const id = newId('imp');
      const fileKey = `t/${w.tenant.id}/imports/${id}`;
      await vault.store(fileKey, Readable.from([Buffer.from('firstName\nThandi\n')]), {
        as: { contentType: 'text/csv', kind: 'document' },
      });
      const i: ImportSnapshot = {
        id,
        tenantId: w.tenant.id,
        type: 'learners',
        status,
        fileName: 'a.csv',
        fileKey,
        autoConfirm: false,
        notify: 'all',
        columnMap: {},
        sheet: null,
        messages: null,
        format: null,
        totalRows: 1,
        validRows: 0,
        rowsWithErrors: 1,
        importedRows: 0,
        errorCount: 1,
        processed: 1,
        createdBy: 'key_1',
        confirmedBy: null,
        createdAt: w.old(300),
        completedAt,
      };
      await w.repos.imports.insert(i);
      await w.repos.imports.addErrors(id, 0, [{ row: 2, field: 'idNumber', error: 'missing' }]);
      return i;
    };

    it('prunes every kind past its cut-off, in batches, and keeps what is younger', async () => {
      const w = await world(2031);
      const oldJobs = [await aJobAt(w, w.old()), await aJobAt(w, w.old()), await aJobAt(w, w.old(8))];
      const youngJob = await aJobAt(w, w.old(6));
      const sub = aSubscription(w.tenant.id);
      await w.repos.webhookSubscriptions.insert(sub);
      const oldEvent = anEvent(w.tenant.id, { occurredAt: w.old() });
      const youngEvent = anEvent(w.tenant.id, { occurredAt: w.recent });
      await w.repos.outbox.addMany([oldEvent, youngEvent]);
      await w.uow.run((tx) => tx.outboxFeed.takeUndispatched(10, w.recent));
      const delivered = aDelivery(oldEvent, sub, { status: 'delivered', nextAttemptAt: null, createdAt: w.old() });
      const dead = aDelivery(oldEvent, sub, { status: 'dead', nextAttemptAt: null, createdAt: w.old() });
      const youngDelivery = aDelivery(youngEvent, sub, {
        status: 'delivered',
        nextAttemptAt: null,
        createdAt: w.recent,
      });
      await w.repos.webhookDeliveries.insertMany([delivered, dead, youngDelivery]);
      const attempt = (d: typeof delivered, at: string) => {
        const o = outcome(d, {
          status: d.status,
          attempts: 1,
          nextAttemptAt: null,
          lastStatusCode: 200,
          deliveredAt: null,
        });
        return { ...o, attempt: { ...o.attempt, at } };
      };
      await w.repos.webhookDeliveries.saveOutcomes('nobody', [
        attempt(delivered, w.old()),
        attempt(dead, w.old(91)),
        attempt(youngDelivery, w.recent),
      ]);
      await w.repos.notifications.insertMany([
        aNotification(w, 'delivered', w.old(400)),
        aNotification(w, 'bounced', w.old(366)),
        aNotification(w, 'skipped', w.old(400)),
        aNotification(w, 'delivered', w.old(300)),
      ]);
      for (const at of [w.old(), w.old(91), w.recent]) await w.repos.hrEvents.add(anHrEntry(w, at));
      const session = (expiresAt: string) => ({
        tokenHash: newId('lrn'),
        tenantId: w.tenant.id,
        userId: 'usr_1',
        csrfToken: 'c',
        createdAt: w.old(400),
        expiresAt,
      });
      await w.repos.dashboardSessions.insert(session(w.old(1)));
      await w.repos.dashboardSessions.insert(session(new Date(w.now.getTime() + DAY).toISOString()));
      const oldImport = await anImport(w, 'completed', w.old());
      const youngImport = await anImport(w, 'failed', w.recent);

      const pruned = await w.run();
      expect(pruned).toMatchObject({
        jobs: expect.any(Number),
        webhookAttempts: expect.any(Number),
        'webhookEvents.deliveries': expect.any(Number),
        'webhookEvents.events': expect.any(Number),
        notifications: expect.any(Number),
        hrLog: expect.any(Number),
        dashboardSessions: expect.any(Number),
        imports: expect.any(Number),
      });
      for (const id of oldJobs) expect(await w.repos.jobs.findById(id)).toBeNull();
      expect(await w.repos.jobs.findById(youngJob)).not.toBeNull();
      expect(await w.repos.outboxFeed.findById(w.tenant.id, oldEvent.id)).toBeNull();
      expect(await w.repos.outboxFeed.findById(w.tenant.id, youngEvent.id)).not.toBeNull();
      expect(await w.repos.webhookDeliveries.findById(w.tenant.id, sub.id, delivered.id)).toBeNull();
      expect(await w.repos.webhookDeliveries.findById(w.tenant.id, sub.id, youngDelivery.id)).not.toBeNull();
      const attempts = await w.repos.webhookAttempts.list(w.tenant.id, sub.id, {
        kind: 'cursor',
        after: null,
        limit: 10,
      });
      expect(attempts.items.map((a) => a.deliveryId)).toEqual([youngDelivery.id]);
      const notes = await w.repos.notifications.list(w.tenant.id, {}, { kind: 'offset', offset: 0, limit: 10 });
      expect(notes.items.map((n) => n.updatedAt)).toEqual([w.old(300)]);
      const hr = await w.repos.hrEvents.list(w.tenant.id, { kind: 'offset', offset: 0, limit: 10 });
      expect(hr.items.map((e) => e.receivedAt)).toEqual([w.recent]);
      expect(await w.repos.imports.findById(w.tenant.id, oldImport.id)).toBeNull();
      expect(await w.repos.imports.errors(oldImport.id, 0, 10)).toEqual([]);
      expect(await files.stat(oldImport.fileKey)).toBeNull();
      expect(await w.repos.imports.findById(w.tenant.id, youngImport.id)).not.toBeNull();
      expect(await files.stat(youngImport.fileKey)).not.toBeNull();
      // A second run finds nothing more.
      const again = await w.run();
      expect(Object.values(again).every((n) => n === 0)).toBe(true);
    });

    it('a row still referenced is kept, whatever its age', async () => {
      const w = await world(2032);
      const unfinishedJob = await aJobAt(w, null);
      const sub = aSubscription(w.tenant.id);
      await w.repos.webhookSubscriptions.insert(sub);
      // Not fanned out yet; fanned out but still owed to a receiver (retrying, held); fanned out and settled.
      const pending = anEvent(w.tenant.id, { occurredAt: w.old() });
      const [retrying, held, settled] = [0, 1, 2].map(() => anEvent(w.tenant.id, { occurredAt: w.old() }));
      await w.repos.outbox.addMany([retrying!, held!, settled!]);
      await w.uow.run((tx) => tx.outboxFeed.takeUndispatched(10, w.old()));
      await w.repos.outbox.add(pending);
      await w.repos.webhookDeliveries.insertMany([
        aDelivery(retrying!, sub, { status: 'failed', nextAttemptAt: w.recent, createdAt: w.old() }),
        aDelivery(held!, sub, { status: 'held', nextAttemptAt: null, createdAt: w.old() }),
        aDelivery(settled!, sub, { status: 'delivered', nextAttemptAt: null, createdAt: w.old() }),
      ]);
      const queued = aNotification(w, 'queued', w.old(500));
      await w.repos.notifications.insertMany([queued]);
      const waiting = await anImport(w, 'validated', null);

      await w.run(2, { ...DOCUMENTED_RETENTION, jobs: 1, webhookEvents: 1, notifications: 1, imports: 1 });
      expect(await w.repos.jobs.findById(unfinishedJob)).toMatchObject({ doneAt: null });
      for (const e of [pending, retrying!, held!])
        expect(await w.repos.outboxFeed.findById(w.tenant.id, e.id), e.id).not.toBeNull();
      expect(await w.repos.outboxFeed.findById(w.tenant.id, settled!.id)).toBeNull();
      // The pending event is still fanned out later, as any other.
      const taken = await w.uow.run((tx) => tx.outboxFeed.takeUndispatched(10, w.recent));
      expect(taken.map((e) => e.id)).toContain(pending.id);
      const notes = await w.repos.notifications.list(w.tenant.id, {}, { kind: 'offset', offset: 0, limit: 10 });
      expect(notes.items.map((n) => n.id)).toEqual([queued.id]);
      expect(await w.repos.imports.findById(w.tenant.id, waiting.id)).not.toBeNull();
      expect(await files.stat(waiting.fileKey)).not.toBeNull();
    });

    it('audit is never touched, whatever the policy', async () => {
      const w = await world(2033);
      const entry = (at: string): AuditEntry => ({
        id: newId('aud'),
        tenantId: w.tenant.id,
        actor: 'system',
        action: 'learner.created',
        resourceType: 'learner',
        resourceId: 'lrn_1',
        at,
        details: {},
      });
      for (const at of [w.old(3650), w.old(400), w.old(1)]) await w.repos.audit.record(entry(at));
      const shortest = Object.fromEntries(Object.keys(DOCUMENTED_RETENTION).map((k) => [k, 0]));
      await w.run(2, shortest);
      const kept = await w.repos.audit.list(w.tenant.id, { limit: 10 });
      expect(kept.map((e) => e.at).sort()).toEqual([w.old(3650), w.old(400), w.old(1)]);
    });
  },
  undefined,
  PARTS,
);
