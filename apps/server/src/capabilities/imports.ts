import { TokenSigner, openFileStore } from '@fundi/adapters';
import { CsvParseReader, ExcelJsWorkbookWriter, importStorage } from '@fundi/adapters/imports';
import { EncryptedFileVault, MasterKeyring, type Ports } from '@fundi/application';
import { erasureJob, onLearnerErased } from '@fundi/application/learners';
import {
  ERASE_IMPORT_COPIES,
  importJobs,
  ImportKinds,
  importRetention,
  importUseCases,
} from '@fundi/application/imports';
import type { FileStoreChoice } from '@fundi/adapters';
import type { PlatformRepos } from '@fundi/domain';
import type { LearnerRepos } from '@fundi/domain/learners';
import type { LogbookRepos } from '@fundi/domain/logbooks';
import type { TrainingRepos } from '@fundi/domain/training';
import type { ImportRepos } from '@fundi/domain/imports';
import { importEvents, importRoutes, importPages } from '@fundi/http/imports';
import { capability } from './capability.js';

/**
 * Bulk CSV imports: the uploaded file is kept encrypted in the service's file store (any process can confirm it),
 * validated and written by the worker (docs/api.md, "Imports"), each type by the kind its capability offers.
 */
export function imports(settings: { fileStore: FileStoreChoice; masterKey: Buffer }) {
  const files = new EncryptedFileVault(openFileStore(settings.fileStore), new MasterKeyring([settings.masterKey]));
  const csv = new CsvParseReader();
  const workbooks = new ExcelJsWorkbookWriter();
  const cursors = new TokenSigner(settings.masterKey);
  return capability({
    name: 'imports',
    storage: importStorage,
    declares: {
      scopes: {
        'imports:read': ['admin', 'manager', 'assessor', 'viewer', 'integration'],
        'imports:write': ['admin', 'manager', 'integration'],
      },
      ids: ['imp'],
      // Finished imports 90 days.
      retention: [{ kind: 'imports', days: 90, variable: 'FUNDI_RETAIN_IMPORTS_DAYS' }],
      events: importEvents,
    },
    useCases: (p: Ports<ImportRepos & LearnerRepos & TrainingRepos & PlatformRepos & LogbookRepos>) =>
      importUseCases({
        ...p,
        files,
        csv,
        workbooks,
        cursors,
        // Every capability's offered kinds, in the list's order: each writes its own records.
        kinds: new ImportKinds(p.hooks.importKinds),
      }),
    routes: importRoutes,
    pageDeps: (u) => ({ imports: u }),
    dashboard: {
      nav: [{ href: '/dashboard/imports', label: 'Imports', order: 70, scope: 'imports:read' }],
      pages: [importPages],
    },
    reactions: () => [onLearnerErased(ERASE_IMPORT_COPIES)],
    jobs: (u) => [...importJobs(u), erasureJob(ERASE_IMPORT_COPIES, (p) => u.removeErasedLearnerFiles.execute(p))],
    retention: (p) => importRetention({ ...p, files }),
  });
}
