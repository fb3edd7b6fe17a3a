import { Readable } from 'node:stream';
import { newId } from '@fundi/domain';
import { Evidence } from '@fundi/domain/evidence';
import { describe, expect, it } from 'vitest';
import { importWorld, jobContext } from '../testing/import-world.js';
import { aProgramme, anEnrolment, seedTenant } from '../testing/training-builders.js';

const ctx = jobContext();

async function setup() {
  const { repos, u, validate, confirm } = await importWorld();
  const { tenantId, learnerIds } = await seedTenant(repos, 2);
  const p = aProgramme(tenantId);
  await repos.programmes.insert(p);
  const enrolment = anEnrolment(p, learnerIds[0]!);
  await repos.enrolments.insert(enrolment);
  const actor = { tenantId, id: 'key_test', role: 'admin' as const, scopes: [] };
  const start = async (csv: string) => {
    const imp = await u.startImport.execute(
      actor,
      { type: 'evidence' },
      { stream: Readable.from([Buffer.from(csv)]), filename: 'e.csv' },
    );
    return { tenantId, importId: imp.id };
  };
  return { repos, u, validate, confirm, tenantId, learnerIds, enrolment, actor, start };
}

describe('evidence import jobs over the in-memory fakes', () => {
  it('a dry run writes nothing; confirm writes one record awaiting its file per valid row, in row order', async () => {
    const { repos, u, validate, confirm, tenantId, learnerIds, actor } = await setup();
    const rows = Array.from({ length: 1500 }, (_, i) => `${learnerIds[0]},M${1 + (i % 2)},logbook,week-${i}.pdf,`);
    const csv = [
      'learner_id,module_code,evidence_type,filename,description',
      ...rows,
      `${learnerIds[1]},M1,logbook,other.pdf,`,
      `${learnerIds[0]},M1,logbook,WEEK-0.PDF,`,
    ].join('\n');
    const imp = await u.startImport.execute(
      actor,
      { type: 'evidence' },
      { stream: Readable.from([Buffer.from(csv)]), filename: 'e.csv' },
    );
    const job = { tenantId, importId: imp.id };
    await validate.run(job, ctx);
    expect(await repos.imports.findById(tenantId, imp.id)).toMatchObject({ status: 'validated', validRows: 1500 });
    const awaiting = { status: 'awaiting_upload' as const };
    const all = { kind: 'offset' as const, offset: 0, limit: 2000 };
    expect((await repos.evidence.list(tenantId, awaiting, all)).total).toBe(0);
    expect(await repos.imports.errors(imp.id, 0, 10)).toMatchObject([
      {
        row: 1502,
        field: 'module_code',
        error: 'M1 is not a module of a programme the learner has an open enrolment in',
      },
      { row: 1503, field: 'filename', error: 'same learner, module and file name as row 2' },
    ]);

    await u.confirmImport.execute(actor, imp.id);
    await confirm.run(job, ctx);
    await confirm.run(job, ctx);
    expect(await repos.imports.findById(tenantId, imp.id)).toMatchObject({ status: 'completed', importedRows: 1500 });
    const made = await repos.evidence.list(tenantId, awaiting, all);
    expect(made.items.map((e) => e.current.filename)).toEqual(Array.from({ length: 1500 }, (_, i) => `week-${i}.pdf`));
    expect(made.items[1]).toMatchObject({ moduleId: 'M2', current: { version: 0, size: 0, uploadedBy: 'key_test' } });
    expect(await repos.evidence.usage(tenantId)).toEqual({ bytes: 0, files: 0 });
    const events = await repos.outbox.list(tenantId, { limit: 10_000 });
    expect(events.map((e) => e.type)).toEqual(['import.completed']);
  });

  it('a second import of the same file reports every row on filename and writes nothing; confirm checks again', async () => {
    const { repos, u, validate, confirm, tenantId, learnerIds, enrolment, actor, start } = await setup();
    const header = 'learner_id,module_code,evidence_type,filename,description';
    const csv = [
      header,
      ...Array.from({ length: 1200 }, (_, i) => `${learnerIds[0]},M${1 + (i % 2)},logbook,week-${i}.pdf,`),
      `${learnerIds[1]},M1,logbook,other.pdf,`,
    ].join('\n');
    const awaiting = { status: 'awaiting_upload' as const };
    const all = { kind: 'offset' as const, offset: 0, limit: 2000 };
    const made = async () => (await repos.evidence.list(tenantId, awaiting, all)).items;
    const first = await start(csv);
    await validate.run(first, ctx);
    await u.confirmImport.execute(actor, first.importId);
    await confirm.run(first, ctx);
    expect(await repos.imports.findById(tenantId, first.importId)).toMatchObject({ importedRows: 1200 });
    const records = await made();
    const idOf = new Map(records.map((e) => [e.current.filename, e.id]));
    const exists = (name: string) =>
      `evidence with this file name exists already for this learner and module (${idOf.get(name)})`;

    // The same file again with one new row: every row that was written is now an error on filename, naming the
    // record; the confirm (in two batches) checks again and writes only the new row.
    const again = await start(`${csv}\n${learnerIds[0]},M1,logbook,fresh.pdf,`);
    await validate.run(again, ctx);
    expect(await repos.imports.findById(tenantId, again.importId)).toMatchObject({
      status: 'validated',
      validRows: 1,
      rowsWithErrors: 1201,
      errorCount: 1201,
    });
    const errors = await repos.imports.errors(again.importId, 0, 2000);
    expect(errors.slice(0, 2)).toMatchObject([
      { row: 2, field: 'filename', error: exists('week-0.pdf') },
      { row: 3, field: 'filename', error: exists('week-1.pdf') },
    ]);
    expect(errors.filter((e) => e.field === 'filename').map((e) => e.row)).toEqual(
      Array.from({ length: 1200 }, (_, i) => i + 2),
    );
    await u.confirmImport.execute(actor, again.importId);
    await confirm.run(again, ctx);
    expect(await repos.imports.findById(tenantId, again.importId)).toMatchObject({
      status: 'completed',
      importedRows: 1,
      errorCount: 1201,
    });
    expect((await repos.imports.errors(again.importId, 0, 2000)).at(-2)).toEqual({
      row: 1201,
      field: 'filename',
      error: exists('week-1199.pdf'),
      value: 'week-1199.pdf',
    });
    const now = await made();
    expect(now.slice(0, records.length)).toEqual(records);
    expect(now.slice(records.length).map((e) => e.current.filename)).toEqual(['fresh.pdf']);

    // Any case matches; deleted evidence does not count; a record made between the dry run and confirm does.
    expect(await repos.evidence.markDeleted(tenantId, idOf.get('week-7.pdf')!, '2026-06-01T09:00:00.000Z')).toBe(true);
    const third = await start(
      [
        header,
        `${learnerIds[0]},M2,logbook,week-7.pdf,`,
        `${learnerIds[0]},M1,logbook,WEEK-8.PDF,`,
        `${learnerIds[0]},M2,logbook,week-8.pdf,`,
        `${learnerIds[0]},M1,logbook,new-1.pdf,`,
        `${learnerIds[0]},M1,logbook,new-2.pdf,`,
      ].join('\n'),
    );
    await validate.run(third, ctx);
    expect(await repos.imports.findById(tenantId, third.importId)).toMatchObject({ validRows: 4, errorCount: 1 });
    expect(await repos.imports.errors(third.importId, 0, 10)).toMatchObject([
      { row: 3, field: 'filename', error: exists('week-8.pdf') },
    ]);
    const meanwhile = Evidence.awaiting({
      id: newId('evd'),
      tenantId,
      learnerId: learnerIds[0]!,
      enrolmentId: enrolment.id,
      moduleId: 'M1',
      evidenceType: 'portfolio',
      filename: 'New-2.PDF',
      description: null,
      createdBy: 'key_other',
      now: new Date('2026-06-01T09:00:00Z'),
    });
    await repos.evidence.insert(meanwhile);
    await u.confirmImport.execute(actor, third.importId);
    await confirm.run(third, ctx);
    expect(await repos.imports.findById(tenantId, third.importId)).toMatchObject({
      status: 'completed',
      importedRows: 3,
      errorCount: 2,
    });
    expect(await repos.imports.errors(third.importId, 0, 10)).toMatchObject([
      { row: 3, field: 'filename', error: exists('week-8.pdf') },
      {
        row: 6,
        field: 'filename',
        error: `evidence with this file name exists already for this learner and module (${meanwhile.id})`,
      },
    ]);
    const after = await made();
    // The first file's records, less the deleted one, with the second's fresh.pdf, the meanwhile one and three new.
    expect(after).toHaveLength(1200 - 1 + 1 + 1 + 3);
    const added = after.filter(
      (e) => !records.some((r) => r.id === e.id) && e.id !== meanwhile.id && e.current.filename !== 'fresh.pdf',
    );
    expect(added.map((e) => [e.moduleId, e.current.filename]).sort()).toEqual([
      ['M1', 'new-1.pdf'],
      ['M2', 'week-7.pdf'],
      ['M2', 'week-8.pdf'],
    ]);
  });
});
