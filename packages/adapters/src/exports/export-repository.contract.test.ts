import { beforeAll, expect, it } from 'vitest';
import type { TenantSnapshot } from '@fundi/domain';
import { emptyRegulatorSettings, type ExportSnapshot } from '@fundi/domain/exports';
import { aTenant, anExport } from '@fundi/domain/testing';
import { describeEachStorage } from '../testing/each-storage.js';
import { CORE_STORAGE } from '../testing/test-databases.js';
import { exportStorage } from './sql-exports.js';

const PARTS = [...CORE_STORAGE, exportStorage] as const;
const at = (minute: number) => new Date(Date.UTC(2026, 5, 1, 8, minute)).toISOString();

describeEachStorage(
  'ExportRepository and RegulatorSettingsRepository contract',
  (get) => {
    let t: TenantSnapshot;
    let other: TenantSnapshot;
    beforeAll(async () => {
      t = aTenant();
      other = aTenant();
      await get().repos.tenants.insert(t);
      await get().repos.tenants.insert(other);
    });

    it('records the progress of a processing export only, and keeps the rest of the record', async () => {
      const repo = get().repos.exports;
      const e = anExport({ tenantId: t.id });
      await repo.insert(e);
      await repo.recordProgress(t.id, e.id, 5, 10);
      await expect(repo.findById(t.id, e.id)).resolves.toEqual(e);
      const running: ExportSnapshot = { ...e, status: 'processing', processedRows: 0, totalRows: 10 };
      await repo.update(running);
      await repo.recordProgress(other.id, e.id, 9, 10);
      await repo.recordProgress(t.id, e.id, 5, 10);
      await expect(repo.findById(t.id, e.id)).resolves.toEqual({ ...running, processedRows: 5 });
      await repo.recordProgress(t.id, e.id, 7, null);
      await expect(repo.findById(t.id, e.id)).resolves.toEqual({ ...running, processedRows: 7, totalRows: null });
      const ready: ExportSnapshot = { ...running, status: 'ready', rowCount: 10, processedRows: 10 };
      await repo.update(ready);
      await repo.recordProgress(t.id, e.id, 8, 10);
      await expect(repo.findById(t.id, e.id)).resolves.toEqual(ready);
    });

    it('round-trips a record, updates it whole, and hides it from another tenant', async () => {
      const repo = get().repos.exports;
      const e = anExport({ tenantId: t.id });
      await repo.insert(e);
      await expect(repo.findById(t.id, e.id)).resolves.toEqual(e);
      await expect(repo.findById(other.id, e.id)).resolves.toBeNull();
      const ready: ExportSnapshot = {
        ...e,
        status: 'ready',
        rowCount: 12,
        fileName: 'learners.csv',
        size: 1234,
        contentType: 'text/csv',
        storageKey: `t/${t.id}/exports/${e.id}`,
        readiness: { ready: 1, leftOut: 1, records: 3, findings: [], omittedFindings: 0 },
        completedAt: at(1),
        expiresAt: at(30),
      };
      await repo.update(ready);
      await expect(repo.findById(t.id, e.id)).resolves.toEqual(ready);
      await expect(repo.update({ ...ready, tenantId: other.id })).rejects.toMatchObject({ kind: 'not_found' });
    });

    it('lists by id in both paging styles and finds expired ready files', async () => {
      const repo = get().repos.exports;
      const x = aTenant();
      await get().repos.tenants.insert(x);
      const a = anExport({ tenantId: x.id, status: 'ready', expiresAt: at(10) });
      const b = anExport({ tenantId: x.id, status: 'ready', expiresAt: at(20) });
      const c = anExport({ tenantId: x.id, status: 'failed' });
      for (const e of [a, b, c]) await repo.insert(e);
      const page = await repo.list(x.id, { kind: 'cursor', after: a.id, limit: 1 });
      expect(page).toMatchObject({ total: 3, hasMore: true });
      expect(page.items.map((e) => e.id)).toEqual([b.id]);
      expect((await repo.list(x.id, { kind: 'offset', offset: 2, limit: 5 })).items.map((e) => e.id)).toEqual([c.id]);
      const due = (await repo.expired(at(15), 100)).filter((e) => e.tenantId === x.id);
      expect(due.map((e) => e.id)).toEqual([a.id]);
      await repo.update({ ...a, purgedAt: at(16) });
      expect((await repo.expired(at(25), 100)).filter((e) => e.tenantId === x.id).map((e) => e.id)).toEqual([b.id]);
    });

    it('keeps regulator settings per tenant and replaces them whole', async () => {
      const repo = get().repos.regulatorSettings;
      await expect(repo.get(t.id)).resolves.toBeNull();
      const s = { ...emptyRegulatorSettings(), sdpCode: 'SDP1', flcStatus: '06' };
      await repo.put(t.id, s, at(1));
      await repo.put(t.id, { ...s, sdpCode: 'SDP2' }, at(2));
      await expect(repo.get(t.id)).resolves.toEqual({ ...s, sdpCode: 'SDP2' });
      await expect(repo.get(other.id)).resolves.toBeNull();
    });
  },
  undefined,
  PARTS,
);
