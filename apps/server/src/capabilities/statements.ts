import { TokenSigner, openFileStore, type FileStoreChoice } from '@fundi/adapters';
import { PdfStatementRenderer, statementStorage } from '@fundi/adapters/statements';
import { EncryptedFileVault, MasterKeyring, type Ports } from '@fundi/application';
import {
  statementJobs,
  statementReactions,
  statementUseCases,
  type StatementRepositories,
} from '@fundi/application/statements';
import {
  enrolmentStatements,
  enrolmentStatementsCard,
  statementEvents,
  statementIds,
  statementRoutes,
  statementPages,
} from '@fundi/http/statements';
import { capability } from './capability.js';

/** Where statements keep their PDFs and sign their links: the service's file store, master key and public base. */
export interface StatementFileSettings {
  fileStore: FileStoreChoice;
  masterKey: Buffer;
  /** The verification URL's base (`FUNDI_PUBLIC_URL`); the request's own origin when empty. */
  publicUrl: string;
}

/**
 * Statements of Results: PDFs kept in the encrypted file store (under `t/<tenant>/statements/`), signed downloads,
 * public verification by code, and their revocation when the learner is erased (docs/api.md).
 */
export function statements(settings: StatementFileSettings) {
  const files = new EncryptedFileVault(openFileStore(settings.fileStore), new MasterKeyring([settings.masterKey]));
  const signer = new TokenSigner(settings.masterKey);
  const renderer = new PdfStatementRenderer();
  return capability({
    name: 'statements',
    storage: statementStorage,
    declares: { ids: ['sor'], events: statementEvents },
    useCases: (p: Ports<StatementRepositories>) =>
      statementUseCases({ ...p, files, signer, renderer, settings: { publicUrl: settings.publicUrl } }),
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
