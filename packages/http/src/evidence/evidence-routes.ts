import type { EvidenceUseCases } from '@fundi/application/evidence';
import { evidenceDownloadRoutes } from './evidence-download-routes.js';
import { evidenceRecordRoutes } from './evidence-record-routes.js';
import { evidenceUploadRoutes } from './evidence-upload-routes.js';
import type { RouteDef } from '../routes/route.js';

/** Evidence files (docs/api.md, "Evidence"), the signed file URLs, and storage usage. */
export function evidenceRoutes(u: { evidence: EvidenceUseCases }): RouteDef[] {
  const records = evidenceRecordRoutes(u.evidence);
  const uploads = evidenceUploadRoutes(u.evidence);
  const downloads = evidenceDownloadRoutes(u.evidence);
  // In the order they were always registered (and appear in the OpenAPI document).
  return [
    records.listEvidence,
    uploads.requestEvidenceUpload,
    uploads.uploadEvidence,
    records.getEvidence,
    records.reviewEvidence,
    records.deleteEvidence,
    records.restoreEvidence,
    records.listEvidenceVersions,
    uploads.uploadEvidenceVersion,
    uploads.requestEvidenceVersionUpload,
    uploads.requestAwaitedEvidenceUpload,
    downloads.getEvidenceDownloadUrl,
    uploads.putSignedUpload,
    downloads.downloadSignedFile,
    downloads.bulkDownloadEvidence,
    downloads.downloadSignedBundle,
    records.getUsage,
  ];
}
