import { expect, it } from 'vitest';
import { newId } from '@fundi/domain';
import type { ImportSnapshot } from '@fundi/domain/imports';
import { describeEachStorage } from '../testing/each-storage.js';
import { CORE_STORAGE } from '../testing/test-databases.js';
import { seedTenant } from '../testing/training-builders.js';
import { importStorage } from './sql-imports.js';

const PARTS = [...CORE_STORAGE, importStorage] as const;

function anImport(tenantId: string, over: Partial<ImportSnapshot> = {}): ImportSnapshot {
  const id = newId('imp');
  return {
    id,
    tenantId,
    type: 'learners',
    status: 'validating',
    fileName: 'learners.csv',
    fileKey: `t/${tenantId}/imports/${id}`,
    autoConfirm: false,
    notify: 'all',
    columnMap: {},
    sheet: null,
    messages: null,
    format: null,
    totalRows: 0,
    validRows: 0,
    rowsWithErrors: 0,
    importedRows: 0,
    errorCount: 0,
    processed: 0,
    createdBy: 'key_a',
    confirmedBy: null,
    createdAt: '2026-06-01T08:00:00.000Z',
    completedAt: null,
    ...over,
  };
}

describeEachStorage(
  'ImportRepository contract',
  (get) => {
    it('stores an import and finds it only within its tenant', async () => {
      const { repos } = get();
      const a = await seedTenant(repos, 0);
      const b = await seedTenant(repos, 0);
      const i = anImport(a.tenantId, { autoConfirm: true });
      await repos.imports.insert(i);
      expect(await repos.imports.findById(a.tenantId, i.id)).toEqual(i);
      expect(await repos.imports.findById(b.tenantId, i.id)).toBeNull();
    });

    it('moves state only from the expected status, with its counters', async () => {
      const { repos } = get();
      const { tenantId } = await seedTenant(repos, 0);
      const i = anImport(tenantId);
      await repos.imports.insert(i);
      expect(
        await repos.imports.transition(tenantId, i.id, 'validating', 'validated', {
          totalRows: 5,
          validRows: 4,
          rowsWithErrors: 1,
        }),
      ).toBe(true);
      expect(await repos.imports.transition(tenantId, i.id, 'validating', 'failed', {})).toBe(false);
      expect(
        await repos.imports.transition(tenantId, i.id, 'validated', 'importing', {
          confirmedBy: 'key_b',
          processed: 0,
        }),
      ).toBe(true);
      expect(await repos.imports.transition(tenantId, i.id, 'validated', 'importing', {})).toBe(false);
      expect(await repos.imports.recordProgress(tenantId, i.id, 'importing', { processed: 3, importedRows: 2 })).toBe(
        true,
      );
      expect(await repos.imports.recordProgress(tenantId, i.id, 'validated', { processed: 9 })).toBe(false);
      expect(await repos.imports.recordProgress(tenantId, i.id, 'importing', { processed: 9 }, 2)).toBe(false);
      expect(await repos.imports.recordProgress(tenantId, i.id, 'importing', { processed: 3 }, 3)).toBe(true);
      const done = '2026-06-01T09:00:00.000Z';
      expect(await repos.imports.transition(tenantId, i.id, 'importing', 'completed', { completedAt: done })).toBe(
        true,
      );
      expect(await repos.imports.findById(tenantId, i.id)).toMatchObject({
        status: 'completed',
        totalRows: 5,
        validRows: 4,
        rowsWithErrors: 1,
        processed: 3,
        importedRows: 2,
        confirmedBy: 'key_b',
        completedAt: done,
      });
    });

    it('pages errors in the order they were added and clears them', async () => {
      const { repos } = get();
      const { tenantId } = await seedTenant(repos, 0);
      const i = anImport(tenantId);
      await repos.imports.insert(i);
      const errors = Array.from({ length: 400 }, (_, n) => ({ row: n + 2, field: 'email', error: `bad ${n}` }));
      await repos.imports.addErrors(i.id, 0, errors.slice(0, 250));
      await repos.imports.addErrors(i.id, 250, errors.slice(250));
      expect(await repos.imports.errors(i.id, 0, 3)).toEqual(errors.slice(0, 3));
      expect(await repos.imports.errors(i.id, 248, 4)).toEqual(errors.slice(248, 252));
      expect(await repos.imports.errors(i.id, 399, 10)).toEqual(errors.slice(399));
      await repos.imports.clearErrors(i.id);
      expect(await repos.imports.errors(i.id, 0, 10)).toEqual([]);
    });

    it('keeps the value and learner of an error, and forgets them on erasure while the text stays', async () => {
      const { repos } = get();
      const { tenantId } = await seedTenant(repos, 0);
      const i = anImport(tenantId);
      const other = anImport(tenantId);
      await repos.imports.insert(i);
      await repos.imports.insert(other);
      const full = {
        row: 2,
        field: 'province_code',
        error: 'must be one of 1, 2',
        value: 'Gautang',
        learner: { name: 'Thandi Mokoena', idNumber: '9202204720083' },
      };
      const noId = { row: 3, field: 'email', error: 'bad', value: 'x@', learner: { name: 'Sipho', idNumber: null } };
      const bare = { row: 1, field: 'file', error: 'is empty' };
      await repos.imports.addErrors(i.id, 0, [full, noId, bare]);
      await repos.imports.addErrors(other.id, 0, [full]);
      expect(await repos.imports.errors(i.id, 0, 10)).toEqual([full, noId, bare]);
      await repos.imports.forgetErrorDetails([i.id]);
      expect(await repos.imports.errors(i.id, 0, 10)).toEqual([
        { row: 2, field: 'province_code', error: 'must be one of 1, 2' },
        { row: 3, field: 'email', error: 'bad' },
        bare,
      ]);
      expect(await repos.imports.errors(other.id, 0, 10)).toEqual([full]);
    });

    it("keeps an import's column map, and each tenant's saved map per type", async () => {
      const { repos } = get();
      const a = await seedTenant(repos, 0);
      const b = await seedTenant(repos, 0);
      const i = anImport(a.tenantId, { columnMap: { surname: 'last_name' } });
      await repos.imports.insert(i);
      expect((await repos.imports.findById(a.tenantId, i.id))?.columnMap).toEqual({ surname: 'last_name' });
      await repos.imports.saveColumnMap(a.tenantId, 'learners', { surname: 'last_name', cell: 'mobile' });
      await repos.imports.saveColumnMap(a.tenantId, 'learners', { cell: null, idno: 'id_number' });
      await repos.imports.saveColumnMap(a.tenantId, 'enrolments', { programme: 'programme_code' });
      expect(await repos.imports.columnMap(a.tenantId, 'learners')).toEqual({
        surname: 'last_name',
        idno: 'id_number',
      });
      expect(await repos.imports.columnMap(a.tenantId, 'enrolments')).toEqual({ programme: 'programme_code' });
      expect(await repos.imports.columnMap(b.tenantId, 'learners')).toEqual({});
    });

    it('lists by id with filters, in both paging styles', async () => {
      const { repos } = get();
      const { tenantId } = await seedTenant(repos, 0);
      const made = [anImport(tenantId), anImport(tenantId, { type: 'enrolments' }), anImport(tenantId)];
      for (const i of made) await repos.imports.insert(i);
      const all = await repos.imports.list(tenantId, {}, { kind: 'offset', offset: 0, limit: 2 });
      expect(all.items.map((i) => i.id)).toEqual([made[0]!.id, made[1]!.id]);
      expect(all).toMatchObject({ total: 3, hasMore: true });
      const next = await repos.imports.list(tenantId, {}, { kind: 'cursor', after: made[1]!.id, limit: 2 });
      expect(next.items.map((i) => i.id)).toEqual([made[2]!.id]);
      const enr = await repos.imports.list(tenantId, { type: 'enrolments' }, { kind: 'offset', offset: 0, limit: 9 });
      expect(enr.items.map((i) => i.id)).toEqual([made[1]!.id]);
    });
  },
  undefined,
  PARTS,
);
