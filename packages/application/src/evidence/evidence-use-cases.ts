import type { EvidenceDownloads } from './evidence-downloads.js';
import type { EvidenceRetention } from './evidence-retention.js';
import type { EvidenceReviews } from './evidence-reviews.js';
import type { EvidenceUploadUrls } from './evidence-upload-urls.js';
import type { EvidenceUploads } from './evidence-uploads.js';
import type { EvidenceUsage } from './evidence-usage.js';

/**
 * Evidence files (docs/api.md, "Evidence"), grouped by concern: the evidence capability builds each over the same
 * ports, and the routes, the dashboard and the jobs call the group they need.
 */
export interface EvidenceUseCases {
  uploads: EvidenceUploads;
  uploadUrls: EvidenceUploadUrls;
  reviews: EvidenceReviews;
  downloads: EvidenceDownloads;
  retention: EvidenceRetention;
  usage: EvidenceUsage;
}
