import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { anExport, aTenant } from '@fundi/domain/testing';
import type { ExportSnapshot, ReadinessFinding } from '@fundi/domain/exports';
import { exportWorld } from '../testing/export-world.js';
import { ERASE_EXPORT_COPIES, PurgeExportsOfErasedLearner } from './erased-learner-exports.js';

const ERASED_AT = '2026-06-01T08:00:00.000Z';
const before = '2026-06-01T07:00:00.000Z';
const after = '2026-06-01T08:30:00.000Z';

const finding = (learnerId: string, idNumber: string): ReadinessFinding => ({
  learnerId,
  idNumber,
  alternateId: null,
  field: 'homeAddress.line1',
  reason: 'missing',
  message: 'homeAddress.line1 is required',
});

describe('PurgeExportsOfErasedLearner', () => {
  it("purges the files of the tenant's exports made before the erasure, waits for running ones, redacts reports", async () => {
    const w = await exportWorld();
    const purge = new PurgeExportsOfErasedLearner({ repos: w.repos, uow: w.uow, clock: w.clock, files: w.vault });
    const ready = async (o: Partial<ExportSnapshot>): Promise<ExportSnapshot> => {
      const e = anExport({ tenantId: w.tenant.id, createdAt: before, status: 'ready', ...o });
      const stored = { ...e, storageKey: `t/${e.tenantId}/exports/${e.id}`, fileName: 'learners.csv', size: 3 };
      await w.vault.store(stored.storageKey, Readable.from([Buffer.from('a,b')]), {
        as: { contentType: 'text/csv', kind: 'document' },
      });
      await w.repos.exports.insert({ ...stored, contentType: 'text/csv' });
      return stored;
    };
    const old = await ready({});
    const later = await ready({ createdAt: after });
    const running = anExport({ tenantId: w.tenant.id, createdAt: before, status: 'processing' });
    const queued = anExport({ tenantId: w.tenant.id, createdAt: before, status: 'queued' });
    const expired = anExport({
      tenantId: w.tenant.id,
      type: 'qcto01',
      createdAt: before,
      status: 'ready',
      purgedAt: before,
      purgeReason: 'expired',
      readiness: {
        ready: 0,
        leftOut: 2,
        records: 0,
        findings: [finding('lrn_erased', '9001045800082'), finding('lrn_kept', '8501015800084')],
        omittedFindings: 0,
      },
    });
    const otherTenant = aTenant();
    await w.repos.tenants.insert(otherTenant);
    const foreign = await ready({ tenantId: otherTenant.id });
    for (const e of [running, queued, expired]) await w.repos.exports.insert(e);

    const p = { tenantId: w.tenant.id, learnerId: 'lrn_erased', erasedAt: ERASED_AT };
    expect(await purge.execute(p)).toEqual({ purged: 1, running: 1 });

    const purged = await w.repos.exports.findById(w.tenant.id, old.id);
    expect(purged).toMatchObject({ status: 'ready', purgedAt: ERASED_AT, purgeReason: 'learner_erased' });
    await expect(w.vault.open(old.storageKey!)).rejects.toThrow();
    await expect(w.exports.downloadUrl.execute(w.actor, old.id)).rejects.toMatchObject({ code: 'export_purged' });
    for (const kept of [later, foreign]) {
      expect(await w.repos.exports.findById(kept.tenantId, kept.id)).toMatchObject({ purgedAt: null });
      await expect(w.vault.open(kept.storageKey!)).resolves.toBeDefined();
    }
    expect(await w.repos.exports.findById(w.tenant.id, queued.id)).toEqual(queued);
    expect((await w.repos.exports.findById(w.tenant.id, expired.id))!).toMatchObject({
      purgedAt: before,
      purgeReason: 'expired',
      readiness: {
        findings: [
          { learnerId: 'lrn_erased', idNumber: null, alternateId: null },
          { learnerId: 'lrn_kept', idNumber: '8501015800084' },
        ],
      },
    });
    const audit = await w.repos.audit.list(w.tenant.id, { limit: 10 });
    expect(audit.filter((a) => a.action === 'export.purged')).toMatchObject([
      { resourceId: old.id, details: { reason: 'learner_erased' } },
    ]);
    const jobs = [...w.store.tables.jobs.values()];
    // The running export is looked at again in 10 seconds.
    expect(jobs.filter((j) => j.kind === ERASE_EXPORT_COPIES.kind).map((j) => j.dueAt)).toEqual([
      '2026-06-01T08:00:10.000Z',
    ]);

    // Finished meanwhile: the next look purges it, and nothing else again.
    await w.repos.exports.update({ ...running, status: 'ready', storageKey: null });
    expect(await purge.execute(p)).toEqual({ purged: 1, running: 0 });
    expect(await w.repos.exports.findById(w.tenant.id, running.id)).toMatchObject({ purgeReason: 'learner_erased' });
  });
});
