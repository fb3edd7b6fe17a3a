import { Readable } from 'node:stream';
import type { Actor } from '@fundi/application';
import { newId, Tenant } from '@fundi/domain';
import { idNumberFor } from '@fundi/domain/testing';
import { describe, expect, it } from 'vitest';
import { importWorld, jobContext, TEST_IMPORT_KINDS } from '../testing/import-world.js';

async function world() {
  const { repos, clock, store, u, validate, confirm, refreshed } = await importWorld();
  const tenant = Tenant.create(
    { slug: `t${Date.now()}`, name: 'T', plan: 'pilot' },
    { id: newId('ten'), now: clock.now() },
  );
  await repos.tenants.insert(tenant);
  const actor: Actor = { tenantId: tenant.id, id: 'key_test', role: 'admin', scopes: [] };
  const ctx = jobContext;
  const start = (csv: string) =>
    u.startImport.execute(
      actor,
      { type: 'learners' },
      { stream: Readable.from([Buffer.from(csv)]), filename: 'l.csv' },
    );
  return { repos, store, u, actor, validate, confirm, ctx, start, refreshed };
}

const csv = (n: number) =>
  [
    'first_name,last_name,id_number,email',
    ...Array.from({ length: n }, (_, i) => `A${i},B${i},${idNumberFor(i)},a${i}@x.co`),
  ].join('\n');

describe('import jobs over the in-memory fakes', () => {
  it('asks for current planner statistics before each walk of the file and after each committed batch', async () => {
    const w = await world();
    const imp = await w.start(csv(2500));
    const job = { tenantId: w.actor.tenantId, importId: imp.id };
    await w.validate.run(job, w.ctx(1));
    expect(w.refreshed).toEqual([['learners', 'enrolments', 'assessments', 'evidence']]);
    await w.u.confirmImport.execute(w.actor, imp.id);
    await w.confirm.run(job, w.ctx(1));
    // The confirm: once before its walk, then after the batches of rows 1-1,000 and 1,001-2,000 (none follows the last).
    expect(w.refreshed).toHaveLength(4);
    expect(new Set(w.refreshed.map((t) => t.join()))).toEqual(new Set([TEST_IMPORT_KINDS.tables.join()]));
    expect(await w.repos.imports.findById(w.actor.tenantId, imp.id)).toMatchObject({ status: 'completed' });
  });

  it('a dry run writes no learner; confirm writes each valid row once, in batches', async () => {
    const w = await world();
    const imp = await w.start(`${csv(2500)}\nBad,Row,123,\n`);
    await w.validate.run({ tenantId: w.actor.tenantId, importId: imp.id }, w.ctx(1));
    expect(await w.repos.imports.findById(w.actor.tenantId, imp.id)).toMatchObject({
      status: 'validated',
      totalRows: 2501,
      validRows: 2500,
      errorCount: 1,
    });
    expect((await w.repos.learners.list(w.actor.tenantId, {}, { kind: 'offset', offset: 0, limit: 1 })).total).toBe(0);
    await w.u.confirmImport.execute(w.actor, imp.id);
    await w.confirm.run({ tenantId: w.actor.tenantId, importId: imp.id }, w.ctx(1));
    await w.confirm.run({ tenantId: w.actor.tenantId, importId: imp.id }, w.ctx(2));
    expect(await w.repos.imports.findById(w.actor.tenantId, imp.id)).toMatchObject({
      status: 'completed',
      importedRows: 2500,
      processed: 2501,
    });
    expect((await w.repos.learners.list(w.actor.tenantId, {}, { kind: 'offset', offset: 0, limit: 1 })).total).toBe(
      2500,
    );
    const events = await w.repos.outbox.list(w.actor.tenantId, { limit: 10_000 });
    // One compact event per batch of 1,000 rows names the batch's learners: each of the 2,500 exactly once.
    const written = events.filter((e) => e.type === 'learners.written');
    expect(written).toHaveLength(3);
    const ids = written.flatMap((e) => e.data.learnerIds as string[]);
    expect(new Set(ids).size).toBe(2500);
    expect(events.filter((e) => e.type === 'learner.created')).toHaveLength(0);
    expect(events.filter((e) => e.type === 'import.completed')).toHaveLength(1);
    expect(await w.repos.imports.errors(imp.id, 0, 5)).toMatchObject([
      { row: 2502, field: 'id_number', error: expect.any(String) },
    ]);
  });

  it('a validation that keeps failing for a system reason ends failed on its last attempt, not validating', async () => {
    const w = await world();
    const imp = await w.start(csv(3));
    w.store.objects.clear();
    const p = { tenantId: w.actor.tenantId, importId: imp.id };
    await expect(w.validate.run(p, w.ctx(1))).rejects.toThrow();
    expect((await w.repos.imports.findById(w.actor.tenantId, imp.id))!.status).toBe('validating');
    await w.validate.run(p, w.ctx(w.validate.maxAttempts!));
    expect(await w.repos.imports.findById(w.actor.tenantId, imp.id)).toMatchObject({ status: 'failed', errorCount: 1 });
    expect(await w.repos.imports.errors(imp.id, 0, 5)).toMatchObject([
      { row: 1, field: 'file', error: expect.stringContaining('could not be validated') },
    ]);
  });

  it('a confirm that keeps failing for a system reason ends failed on its last attempt, keeping what it wrote', async () => {
    const w = await world();
    const imp = await w.start(csv(2500));
    const p = { tenantId: w.actor.tenantId, importId: imp.id };
    await w.validate.run(p, w.ctx(1));
    await w.u.confirmImport.execute(w.actor, imp.id);
    // The first attempt writes its first batch, then the worker stops: the signal reads aborted from the
    // second batch's check on.
    let checks = 0;
    const signal = {
      get aborted() {
        return ++checks >= 2;
      },
    } as AbortSignal;
    await expect(w.confirm.run(p, { ...w.ctx(1), signal })).rejects.toThrow(/shutting down/);
    expect((await w.repos.imports.findById(w.actor.tenantId, imp.id))!.status).toBe('importing');
    // Then the stored file is gone: every later attempt fails; the last one ends the import.
    w.store.objects.clear();
    await expect(w.confirm.run(p, w.ctx(2))).rejects.toThrow();
    expect((await w.repos.imports.findById(w.actor.tenantId, imp.id))!.status).toBe('importing');
    await w.confirm.run(p, w.ctx(w.confirm.maxAttempts!));
    const ended = await w.repos.imports.findById(w.actor.tenantId, imp.id);
    expect(ended).toMatchObject({ status: 'failed', importedRows: 1000, processed: 1000, errorCount: 1 });
    expect(ended!.completedAt).toBeTruthy();
    expect(await w.repos.imports.errors(imp.id, 0, 5)).toMatchObject([
      { row: 1, field: 'file', error: expect.stringContaining('after 1000 of 2500 rows, 1000 of them written') },
    ]);
    expect((await w.repos.learners.list(w.actor.tenantId, {}, { kind: 'offset', offset: 0, limit: 1 })).total).toBe(
      1000,
    );
    // A confirm on the failed import is refused and writes nothing.
    await expect(w.u.confirmImport.execute(w.actor, imp.id)).rejects.toMatchObject({ code: 'import_not_confirmable' });
  });
});
