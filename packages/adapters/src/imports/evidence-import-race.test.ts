import { Readable } from 'node:stream';
import { expect, it } from 'vitest';
import { evidenceStorage } from '../evidence/evidence-storage.js';
import { logbookStorage } from '../logbooks/logbook-storage.js';
import { notificationStorage } from '../notifications/sql-notifications.js';
import { describeEachStorage } from '../testing/each-storage.js';
import { importWorldOver, jobContext } from '../testing/import-world.js';
import { CORE_STORAGE } from '../testing/test-databases.js';
import { aProgramme, anEnrolment, seedTenant } from '../testing/training-builders.js';
import { importStorage } from './sql-imports.js';

const PARTS = [...CORE_STORAGE, importStorage, evidenceStorage, logbookStorage, notificationStorage] as const;

describeEachStorage(
  'evidence imports confirmed at the same moment',
  (get) => {
    it('write each file name once: rows another import wrote meanwhile are reported, the rest written', async () => {
      const { repos, uow } = get();
      const { u, validate, confirm } = importWorldOver(repos, uow);
      const { tenantId, learnerIds } = await seedTenant(repos, 1);
      const p = aProgramme(tenantId);
      await repos.programmes.insert(p);
      await repos.enrolments.insert(anEnrolment(p, learnerIds[0]!));
      const actor = { tenantId, id: 'key_test', role: 'admin' as const, scopes: [] };
      const file = (from: number, to: number) =>
        [
          'learner_id,module_code,evidence_type,filename,description',
          ...Array.from({ length: to - from }, (_, i) => `${learnerIds[0]},M1,logbook,week-${from + i}.pdf,`),
        ].join('\n');
      // Two files of one batch each, sharing 300 names (week-500 to week-799).
      const jobs = [];
      for (const csv of [file(0, 800), file(500, 1300)]) {
        const imp = await u.startImport.execute(
          actor,
          { type: 'evidence' },
          { stream: Readable.from([Buffer.from(csv)]), filename: 'e.csv' },
        );
        const job = { tenantId, importId: imp.id };
        await validate.run(job, jobContext());
        await u.confirmImport.execute(actor, imp.id);
        jobs.push(job);
      }
      await Promise.all(jobs.map((j) => confirm.run(j, jobContext())));

      const made = await repos.evidence.list(
        tenantId,
        { status: 'awaiting_upload' },
        { kind: 'offset', offset: 0, limit: 2000 },
      );
      const names = made.items.map((e) => e.current.filename);
      expect(new Set(names).size).toBe(names.length);
      expect(names.length).toBe(1300);
      const [a, b] = await Promise.all(jobs.map((j) => repos.imports.findById(tenantId, j.importId)));
      expect([a!.status, b!.status]).toEqual(['completed', 'completed']);
      expect(a!.importedRows + b!.importedRows).toBe(1300);
      const second = a!.importedRows === 800 ? b! : a!;
      expect(second.importedRows).toBe(500);
      const errors = await repos.imports.errors(second.id, 0, 1000);
      expect(errors).toHaveLength(300);
      expect(errors[0]).toMatchObject({
        field: 'filename',
        error: expect.stringContaining('exists already for this learner and module'),
      });
    });
  },
  ['memory', 'sqlite', 'postgres'],
  PARTS,
);
