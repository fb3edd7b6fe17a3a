import { EncryptedFileVault, MasterKeyring, type JobContext } from '@fundi/application';
import { assessmentImport, enrolmentImport } from '@fundi/application/training';
import { evidenceImport } from '@fundi/application/evidence';
import { importJobs, ImportKinds, importUseCases } from '@fundi/application/imports';
import { learnerImport } from '@fundi/application/learners';
import { logbookImport } from '@fundi/application/logbooks';
import { MemoryFileStore, memoryStorage } from '@fundi/memory';
import { evidenceMemory } from '@fundi/memory/evidence';
import { importMemory } from '@fundi/memory/imports';
import { learnerMemory } from '@fundi/memory/learners';
import { logbookMemory } from '@fundi/memory/logbooks';
import { platformMemory } from '@fundi/memory/platform';
import { tenantMemory } from '@fundi/memory/tenants';
import { trainingMemory } from '@fundi/memory/training';
import { FixedClock } from '@fundi/testing';
import type { JobSnapshot } from '@fundi/domain';
import { CsvParseReader } from '../imports/csv-parse-reader.js';
import { ExcelJsWorkbookWriter } from '../imports/xlsx-workbook-writer.js';
import { TokenSigner } from '../system/node-secrets.js';

/** A job's context for a test run: attempt `attempt`, never aborted. */
export const jobContext = (attempt = 1): JobContext => ({
  attempt,
  progress: null,
  report: async () => {},
  reportIn: async () => {},
  signal: new AbortController().signal,
});

/** Every import kind as the service's capabilities offer them, in the capability list's order. */
export const TEST_IMPORT_KINDS = new ImportKinds([
  [learnerImport],
  [enrolmentImport, assessmentImport],
  [evidenceImport],
  [logbookImport],
]);

/**
 * The import use cases and their two jobs (validate, confirm) over the in-memory fakes, with the real CSV reader
 * and an encrypted vault over a memory file store; the tests seed their own tenant and data.
 */
export async function importWorld() {
  const { store, repositories, uow } = memoryStorage([
    platformMemory,
    tenantMemory,
    learnerMemory,
    trainingMemory,
    importMemory,
    evidenceMemory,
    logbookMemory,
  ]);
  /** The jobs queued, in the order queued. */
  const jobs = () => [...(store.tables as { jobs: Map<string, JobSnapshot> }).jobs.values()];
  return { ...importWorldOver(repositories(), uow), jobs };
}

/** The same over a given store (SQLite or Postgres in the contract suites). */
export function importWorldOver<R extends Parameters<typeof importUseCases>[0]['repos']>(
  repos: R,
  uow: Parameters<typeof importUseCases>[0]['uow'],
) {
  const clock = new FixedClock(new Date('2026-06-01T08:00:00Z'));
  const store = new MemoryFileStore();
  const files = new EncryptedFileVault(store, new MasterKeyring([Buffer.alloc(32, 3)]));
  const cursors = new TokenSigner(Buffer.alloc(32, 4));
  /** Each statistics refresh the import asked for, with its tables. */
  const refreshed: string[][] = [];
  const maintenance = { refreshStatistics: async (tables: readonly string[]) => void refreshed.push([...tables]) };
  const u = importUseCases({
    repos,
    uow,
    clock,
    files,
    csv: new CsvParseReader(),
    workbooks: new ExcelJsWorkbookWriter(),
    cursors,
    maintenance,
    kinds: TEST_IMPORT_KINDS,
  });
  const [validate, confirm] = importJobs(u);
  return { repos, uow, clock, store, u, validate: validate!, confirm: confirm!, refreshed };
}
