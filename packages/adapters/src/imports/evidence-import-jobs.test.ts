import { Readable } from 'node:stream';
import { EncryptedFileVault, importJobs, importUseCases, MasterKeyring, type JobContext } from '@fundi/application';
import {
  evidenceMemory,
  FixedClock,
  importMemory,
  learnerMemory,
  MemoryFileStore,
  memoryStorage,
  platformMemory,
  tenantMemory,
  trainingMemory,
} from '@fundi/fakes';
import { describe, expect, it } from 'vitest';
import { TokenSigner } from '../system/node-secrets.js';
import { aProgramme, anEnrolment, seedTenant } from '../testing/training-builders.js';
import { CsvParseReader } from './csv-parse-reader.js';

const ctx: JobContext = {
  attempt: 1,
  progress: null,
  report: async () => {},
  reportIn: async () => {},
  signal: new AbortController().signal,
};

describe('evidence import jobs over the in-memory fakes', () => {
  it('a dry run writes nothing; confirm writes one record awaiting its file per valid row, in row order', async () => {
    const { repositories, uow } = memoryStorage([
      platformMemory,
      tenantMemory,
      learnerMemory,
      trainingMemory,
      importMemory,
      evidenceMemory,
    ]);
    const repos = repositories();
    const clock = new FixedClock(new Date('2026-06-01T08:00:00Z'));
    const files = new EncryptedFileVault(new MemoryFileStore(), new MasterKeyring([Buffer.alloc(32, 3)]));
    const u = importUseCases({
      repos,
      uow,
      clock,
      files,
      csv: new CsvParseReader(),
      cursors: new TokenSigner(Buffer.alloc(32, 4)),
    });
    const [validate, confirm] = importJobs(u);
    const { tenantId, learnerIds } = await seedTenant(repos, 2);
    const p = aProgramme(tenantId);
    await repos.programmes.insert(p);
    await repos.enrolments.insert(anEnrolment(p, learnerIds[0]!));
    const actor = { tenantId, id: 'key_test', role: 'admin' as const, scopes: [] };
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
    await validate!.run(job, ctx);
    expect(await repos.imports.findById(tenantId, imp.id)).toMatchObject({ status: 'validated', validRows: 1500 });
    const awaiting = { status: 'awaiting_upload' as const };
    const all = { kind: 'offset' as const, offset: 0, limit: 2000 };
    expect((await repos.evidence.list(tenantId, awaiting, all)).total).toBe(0);
    expect(await repos.imports.errors(imp.id, 0, 10)).toEqual([
      {
        row: 1502,
        field: 'module_code',
        error: 'M1 is not a module of a programme the learner has an open enrolment in',
      },
      { row: 1503, field: 'filename', error: 'same learner, module and file name as row 2' },
    ]);

    await u.imports.confirm(actor, imp.id);
    await confirm!.run(job, ctx);
    await confirm!.run(job, ctx);
    expect(await repos.imports.findById(tenantId, imp.id)).toMatchObject({ status: 'completed', importedRows: 1500 });
    const made = await repos.evidence.list(tenantId, awaiting, all);
    expect(made.items.map((e) => e.current.filename)).toEqual(Array.from({ length: 1500 }, (_, i) => `week-${i}.pdf`));
    expect(made.items[1]).toMatchObject({ moduleId: 'M2', current: { version: 0, size: 0, uploadedBy: 'key_test' } });
    expect(await repos.evidence.usage(tenantId)).toEqual({ bytes: 0, files: 0 });
    const events = await repos.outbox.list(tenantId, { limit: 10_000 });
    expect(events.map((e) => e.type)).toEqual(['import.completed']);
  });
});
