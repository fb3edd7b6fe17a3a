import { TokenSigner, openFileStore } from '@fundi/adapters';
import { PdfStatementRenderer, statementStorage } from '@fundi/adapters/statements';
import { EncryptedFileVault, MasterKeyring, type Ports } from '@fundi/application';
import { statementJobs, statementReactions, statementUseCases } from '@fundi/application/statements';
import type { PlatformRepos, TenantRepos } from '@fundi/domain';
import type { LearnerRepos } from '@fundi/domain/learners';
import type { StatementRepos } from '@fundi/domain/statements';
import type { TrainingRepos } from '@fundi/domain/training';
import type { ExportRepos } from '@fundi/domain/exports';
import {
  enrolmentStatements,
  enrolmentStatementsCard,
  statementEvents,
  statementIds,
  statementRoutes,
  statementPages,
} from '@fundi/http/statements';
import { capability } from './capability.js';
import type { ExportSettings } from './exports.js';

/**
 * Statements of Results: PDFs kept in the encrypted file store (under `t/<tenant>/statements/`), signed downloads,
 * public verification by code, and their revocation when the learner is erased (docs/api.md).
 */
export function statements(settings: Pick<ExportSettings, 'fileStore' | 'masterKey' | 'publicUrl'>) {
  const files = new EncryptedFileVault(openFileStore(settings.fileStore), new MasterKeyring([settings.masterKey]));
  const signer = new TokenSigner(settings.masterKey);
  const renderer = new PdfStatementRenderer();
  return capability({
    name: 'statements',
    storage: statementStorage,
    declares: { ids: ['sor'], events: statementEvents },
    useCases: (
      p: Ports<
        StatementRepos &
          Pick<LearnerRepos, 'learners'> &
          Pick<TrainingRepos, 'enrolments' | 'programmes' | 'assessments'> &
          Pick<TenantRepos, 'tenants'> &
          Pick<ExportRepos, 'regulatorSettings'> &
          PlatformRepos
      >,
    ) => statementUseCases({ ...p, files, signer, renderer, settings: { publicUrl: settings.publicUrl } }),
    routes: statementRoutes,
    pageDeps: (u) => ({ statements: u, verification: u }),
    dashboard: {
      pages: [statementPages],
      sections: {
        enrolmentCard: [enrolmentStatements],
        enrolmentRecord: [enrolmentStatementsCard],
        enrolmentRecordIds: [statementIds],
      },
    },
    reactions: statementReactions,
    jobs: statementJobs,
  });
}
