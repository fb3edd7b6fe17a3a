import { CompleteUpload } from './complete-upload.js';
import { DeleteEvidence } from './delete-evidence.js';
import { EraseLearnerEvidence } from './erase-learner-evidence.js';
import type { EvidencePorts } from './evidence-ports.js';
import { EvidenceUploads } from './evidence-uploads.js';
import { EvidenceUsage } from './evidence-usage.js';
import { EvidenceVersions } from './evidence-versions.js';
import { GetEvidence } from './get-evidence.js';
import { IssueBundleUrl } from './issue-bundle-url.js';
import { IssueDownloadUrl } from './issue-download-url.js';
import { ListEvidence } from './list-evidence.js';
import { EnrolmentsWithUploads } from './enrolments-with-uploads.js';
import { OpenBundle } from './open-bundle.js';
import { OpenDownload } from './open-download.js';
import { PurgeDeletedEvidence } from './purge-deleted-evidence.js';
import { PurgeRetainedEvidence } from './purge-retained-evidence.js';
import { RequestAwaitedUpload } from './request-awaited-upload.js';
import { RequestUpload } from './request-upload.js';
import { RetentionYears } from './retention-years.js';
import { ReviewEvidence } from './review-evidence.js';
import { RestoreEvidence } from './restore-evidence.js';
import { RewrapEvidenceFiles } from './rewrap-evidence-files.js';
import { SetRetentionYears } from './set-retention-years.js';
import { UploadKeys } from './upload-keys.js';

/**
 * Evidence files (docs/api.md, "Evidence"), one use case each over the same ports: the routes, the dashboard and
 * the jobs call the ones they need.
 */
export function evidenceUseCases(p: EvidencePorts) {
  return {
    uploads: new EvidenceUploads(p),
    uploadKeys: new UploadKeys(p),
    requestUpload: new RequestUpload(p),
    requestAwaitedUpload: new RequestAwaitedUpload(p),
    completeUpload: new CompleteUpload(p),
    getEvidence: new GetEvidence(p),
    listEvidence: new ListEvidence(p),
    enrolmentsWithUploads: new EnrolmentsWithUploads(p),
    evidenceVersions: new EvidenceVersions(p),
    reviewEvidence: new ReviewEvidence(p),
    deleteEvidence: new DeleteEvidence(p),
    restoreEvidence: new RestoreEvidence(p),
    downloadUrl: new IssueDownloadUrl(p),
    openDownload: new OpenDownload(p),
    bundleUrl: new IssueBundleUrl(p),
    openBundle: new OpenBundle(p),
    purgeDeleted: new PurgeDeletedEvidence(p),
    purgeRetained: new PurgeRetainedEvidence(p),
    rewrapFiles: new RewrapEvidenceFiles(p),
    retentionYears: new RetentionYears(p),
    setRetentionYears: new SetRetentionYears(p),
    eraseLearner: new EraseLearnerEvidence(p),
    usage: new EvidenceUsage(p),
  };
}

export type EvidenceUseCases = ReturnType<typeof evidenceUseCases>;
