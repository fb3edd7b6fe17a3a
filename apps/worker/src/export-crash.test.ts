import { expect, it } from 'vitest';
import { exportStorage } from '@fundi/adapters/exports';
import {
  buildBeforeAll,
  CORE_STORAGE,
  describeEachStorage,
  exited,
  scratchDir,
  until,
  workerProcesses,
} from '@fundi/adapters/testing';
import { newId } from '@fundi/domain';
import { aLearner, aTenant, anExport, idNumberFor } from '@fundi/domain/testing';

const LEARNERS = 12_000;

buildBeforeAll();

describeEachStorage(
  'an export when its worker is SIGKILLed mid-file',
  (get) => {
    const dataDir = scratchDir('fundi-export-crash-');
    const spawnWorker = workerProcesses({ masterKey: Buffer.alloc(32, 4), dataDir });

    it('is redone by the next worker and ends ready once, with one export.ready', async () => {
      const { repos, uow, target, db } = get();
      const t = aTenant();
      await repos.tenants.insert(t);
      await uow.run(async (tx) => {
        for (let i = 0; i < LEARNERS; i++)
          await tx.learners.insert(aLearner({ tenantId: t.id, idNumber: idNumberFor(500_000 + i), email: null }));
      });
      const now = new Date().toISOString();
      const e = anExport({
        tenantId: t.id,
        filters: {},
        // `programme` reads each learner's enrolments: a file that takes long enough to be killed in.
        fields: ['id', 'id_number', 'first_name', 'programme'],
        createdBy: 'key_test',
        createdAt: now,
      });
      await repos.exports.insert(e);
      await repos.jobs.enqueue({
        id: newId('job'),
        kind: 'exports.run',
        lane: 'long',
        payload: { tenantId: t.id, exportId: e.id },
        dueAt: now,
        maxAttempts: 3,
        idempotencyKey: `export:${e.id}`,
        createdAt: now,
      });
      const status = async () => (await repos.exports.findById(t.id, e.id))!.status;
      const first = spawnWorker(target!);
      await until(async () => (await status()) === 'processing', 30_000, 'processing', 20);
      await new Promise((ok) => setTimeout(ok, 150));
      first.kill('SIGKILL');
      expect(await exited(first)).toBeNull();
      expect(await status()).toBe('processing');
      const second = spawnWorker(target!);
      await until(async () => (await status()) === 'ready', 60_000, 'ready', 20);
      second.kill('SIGTERM');
      await exited(second);
      const done = (await repos.exports.findById(t.id, e.id))!;
      expect(done).toMatchObject({ status: 'ready', rowCount: LEARNERS });
      const events = await db!.all<{ type: string }>(
        `SELECT type FROM outbox_events WHERE tenant_id = ? AND type IN ('export.ready', 'export.completed')`,
        [t.id],
      );
      expect(events.map((x) => x.type).sort()).toEqual(['export.completed', 'export.ready']);
      const job = await db!.first<{ attempts: number }>(`SELECT attempts FROM jobs WHERE idempotency_key = ?`, [
        `export:${e.id}`,
      ]);
      expect(Number(job!.attempts)).toBeGreaterThanOrEqual(2);
    }, 120_000);
  },
  ['sqlite', 'postgres'],
  [...CORE_STORAGE, exportStorage],
);
