import type { PlatformRepos, TenantRepos } from '@fundi/domain';
import type { LearnerRepos } from '@fundi/domain/learners';
import type { TrainingRepos } from '@fundi/domain/training';
import type { WebhookRepos } from '@fundi/domain/webhooks';
import type { EvidenceRepos } from '@fundi/domain/evidence';
import type { CoreDeps } from '../common/ports.js';
import type { RequestMeter } from '../tenants/request-meter.js';

export type { FileVault, StoredFile } from '../files/file-vault.js';
import type { FileVault } from '../files/file-vault.js';

export type { UrlSigner } from '../common/url-signer.js';
import type { UrlSigner } from '../common/url-signer.js';

export interface EvidenceSettings {
  /** Public base of the service (e.g. `https://fundi.example.co.za`), so signed URLs are absolute; '' = relative. */
  publicUrl: string;
}

export type EvidencePorts = CoreDeps<
  EvidenceRepos & LearnerRepos & TrainingRepos & TenantRepos & PlatformRepos & Pick<WebhookRepos, 'tenantAlerts'>
> & {
  files: FileVault;
  signer: UrlSigner;
  meter: Pick<RequestMeter, 'flush'>;
  settings: EvidenceSettings;
};
