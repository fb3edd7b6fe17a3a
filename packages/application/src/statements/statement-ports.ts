import type { PlatformRepos, TenantRepos } from '@fundi/domain';
import type { LearnerRepos } from '@fundi/domain/learners';
import type { StatementModule, StatementOutcome, StatementRepos } from '@fundi/domain/statements';
import type { TrainingRepos } from '@fundi/domain/training';
import type { CoreDeps } from '../common/ports.js';
import type { UrlSigner } from '../common/url-signer.js';
import type { FileVault } from '../files/file-vault.js';

/** Everything a Statement of Results shows (docs/api.md, "Statements of Results"). */
export interface StatementContent {
  statementId: string;
  provider: { name: string; sdpCode: string | null };
  learner: { name: string; identifier: string; identifierType: string };
  programme: {
    code: string;
    name: string;
    qualificationId: string | null;
    nqfLevel: number | null;
    credits: number | null;
  };
  modules: StatementModule[];
  outcome: StatementOutcome;
  issuedOn: string;
  verificationCode: string;
  verifyUrl: string;
}

/** Port: lays a statement out as a PDF, with a QR code of its verification URL. */
export interface StatementRenderer {
  render(c: StatementContent): Promise<Buffer>;
}

export interface StatementSettings {
  /** `FUNDI_PUBLIC_URL`: the verification URL's base; the request's own origin when empty. */
  publicUrl: string;
}

/**
 * What a statement reads of the provider's registration with its regulator: the SDP code of the tenant's regulator
 * settings (docs/api.md, "Regulator settings"), declared by the shape statements read, so they name no other
 * capability's repository; the service's repositories hand it over.
 */
export interface RegulatorRegistration {
  regulatorSettings: { get(tenantId: string): Promise<{ sdpCode: string | null } | null> };
}

/** Every repository statements read and write. */
export type StatementRepositories = StatementRepos &
  Pick<LearnerRepos, 'learners'> &
  Pick<TrainingRepos, 'enrolments' | 'programmes' | 'assessments'> &
  Pick<TenantRepos, 'tenants'> &
  RegulatorRegistration &
  PlatformRepos;

export type StatementPorts = CoreDeps<StatementRepositories> & {
  files: FileVault;
  signer: UrlSigner;
  renderer: StatementRenderer;
  settings: StatementSettings;
};
