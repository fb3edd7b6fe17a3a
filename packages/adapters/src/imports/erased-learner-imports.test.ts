import { Readable } from 'node:stream';
import type { Actor } from '@fundi/application';
import { ERASE_IMPORT_COPIES, ERASED_FILE_ERROR, fileKeyOf } from '@fundi/application/imports';
import { newId, Tenant } from '@fundi/domain';
import { idNumberFor } from '@fundi/domain/testing';
import { describe, expect, it } from 'vitest';
import { importWorld, jobContext } from '../testing/import-world.js';

const csv = (from: number) =>
  ['first_name,last_name,id_number', ...[0, 1].map((i) => `A${i},B${i},${idNumberFor(from + i)}`)].join('\n');

describe('an erasure and the import files', () => {
  it('removes the files of the imports made before it, fails a dry run awaiting confirm, waits for running ones', async () => {
    const w = await importWorld();
    const tenant = Tenant.create(
      { slug: 'erase-imports', name: 'T', plan: 'pilot' },
      { id: newId('ten'), now: w.clock.now() },
    );
    await w.repos.tenants.insert(tenant);
    const actor: Actor = { tenantId: tenant.id, id: 'key_test', role: 'admin', scopes: [] };
    const start = (n: number) =>
      w.u.startImport.execute(
        actor,
        { type: 'learners' },
        { stream: Readable.from([Buffer.from(csv(n))]), filename: 'l.csv' },
      );
    const job = (id: string) => ({ tenantId: tenant.id, importId: id });
    const file = (id: string) => w.store.stat(fileKeyOf(tenant.id, id));

    const done = await start(0);
    await w.validate.run(job(done.id), jobContext());
    await w.u.confirmImport.execute(actor, done.id);
    await w.confirm.run(job(done.id), jobContext());
    const dryRun = await start(10);
    await w.validate.run(job(dryRun.id), jobContext());
    const validating = await start(20);
    w.clock.advance(60_000);
    const erasedAt = w.clock.now().toISOString();
    w.clock.advance(60_000);
    const later = await start(30);
    await w.validate.run(job(later.id), jobContext());

    const p = { tenantId: tenant.id, learnerId: 'lrn_erased', erasedAt };
    expect(await w.u.removeErasedLearnerFiles.execute(p)).toEqual({ removed: 2, running: 1 });
    expect(await file(done.id)).toBeNull();
    expect(await file(dryRun.id)).toBeNull();
    expect(await file(validating.id)).not.toBeNull();
    expect(await file(later.id)).not.toBeNull();
    expect(await w.repos.imports.findById(tenant.id, done.id)).toMatchObject({ status: 'completed', importedRows: 2 });
    expect(await w.repos.imports.findById(tenant.id, dryRun.id)).toMatchObject({ status: 'failed', errorCount: 1 });
    expect(await w.repos.imports.errors(dryRun.id, 0, 10)).toEqual([ERASED_FILE_ERROR]);
    await expect(w.u.confirmImport.execute(actor, dryRun.id)).rejects.toMatchObject({ code: 'import_not_confirmable' });
    expect(await w.repos.imports.findById(tenant.id, later.id)).toMatchObject({ status: 'validated' });

    // The running import is looked at again once it has finished.
    const again = w.jobs().filter((j) => j.kind === ERASE_IMPORT_COPIES.kind);
    expect(again.map((j) => j.dueAt)).toEqual([new Date(w.clock.now().getTime() + 10_000).toISOString()]);
    await w.validate.run(job(validating.id), jobContext());
    expect(await w.u.removeErasedLearnerFiles.execute(p)).toEqual({ removed: 3, running: 0 });
    expect(await file(validating.id)).toBeNull();
    expect(await file(later.id)).not.toBeNull();
  });
});
