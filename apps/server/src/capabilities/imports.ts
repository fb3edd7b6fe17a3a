import { TokenSigner, openFileStore } from '@fundi/adapters';
import { CsvParseReader, ExcelJsWorkbookWriter, importStorage } from '@fundi/adapters/imports';
import { EncryptedFileVault, MasterKeyring, type Ports } from '@fundi/application';
import { erasureJob, onLearnerErased } from '@fundi/application/learners';
import { ERASE_IMPORT_COPIES, importJobs, importRetention, importUseCases } from '@fundi/application/imports';
import type { PlatformRepos } from '@fundi/domain';
import type { LearnerRepos } from '@fundi/domain/learners';
import type { LogbookRepos } from '@fundi/domain/logbooks';
import type { TrainingRepos } from '@fundi/domain/training';
import type { EvidenceRepos } from '@fundi/domain/evidence';
import type { ImportRepos } from '@fundi/domain/imports';
import type { NotificationRepos } from '@fundi/domain/notifications';
import { importEvents, importRoutes, importPages } from '@fundi/http/imports';
import { capability } from './capability.js';
import type { EvidenceSettings } from './evidence.js';

/**
 * Bulk CSV imports: the uploaded file is kept encrypted in the same file store as evidence (any process can
 * confirm it), validated and written by the worker (docs/api.md, "Imports").
 */
export function imports(settings: Pick<EvidenceSettings, 'fileStore' | 'masterKey'> & { whatsappByDefault?: boolean }) {
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
    useCases: (
      p: Ports<
        ImportRepos &
          LearnerRepos &
          TrainingRepos &
          PlatformRepos &
          Pick<EvidenceRepos, 'evidence'> &
          Pick<NotificationRepos, 'notificationSettings'> &
          LogbookRepos
      >,
    ) =>
      importUseCases({
        ...p,
        files,
        csv,
        workbooks,
        cursors,
        whatsappByDefault: settings.whatsappByDefault ?? false,
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
