import { TokenSigner, openFileStore, type FileStoreChoice } from '@fundi/adapters';
import { evidenceStorage } from '@fundi/adapters/evidence';
import { EncryptedFileVault, MasterKeyring, type Ports } from '@fundi/application';
import { erasureJob, onLearnerErased } from '@fundi/application/learners';
import {
  ERASE_LEARNER_EVIDENCE,
  PURGE_DELETED_EVIDENCE,
  PURGE_RETAINED_EVIDENCE,
  SNAPSHOT_STORAGE_USE,
  evidenceExport,
  evidenceImport,
  evidenceTriggers,
  evidenceUseCases,
  uploadKeyRetention,
  type EvidenceUseCases,
} from '@fundi/application/evidence';
import type { PlatformRepos, TenantRepos } from '@fundi/domain';
import type { LearnerRepos } from '@fundi/domain/learners';
import type { TrainingRepos } from '@fundi/domain/training';
import type { WebhookRepos } from '@fundi/domain/webhooks';
import type { EvidenceRepos } from '@fundi/domain/evidence';
import {
  assessorQueue,
  enrolmentEvidence,
  evidenceActivity,
  evidenceBacklog,
  evidenceIds,
  evidenceEvents,
  evidencePages,
  evidencePortalPages,
  evidenceRecordPages,
  evidenceRetention,
  evidenceRoutes,
  evidenceSettingsPages,
  evidenceStorageLimit,
  evidenceTiles,
  evidenceUploaded,
  learnerEvidence,
  portalEvidenceUploaded,
  portalModuleEvidence,
  usagePages,
} from '@fundi/http/evidence';
import { capability } from './capability.js';
import { evidenceCommands } from './evidence-commands.js';

export interface EvidenceSettings {
  fileStore: FileStoreChoice;
  masterKey: Buffer;
  /** Master keys replaced by a rotation: files wrapped under them still open until re-wrapped. */
  previousMasterKeys?: readonly Buffer[];
  /** Absolute base of the signed file URLs (`FUNDI_PUBLIC_URL`); '' gives relative URLs. */
  publicUrl: string;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * Evidence files: encrypted in the file store chosen by configuration, signed upload and download URLs, review
 * with versions, deletion with a 30-day restore, an hourly purge, and erasure with the learner.
 */
export function evidence(settings: EvidenceSettings) {
  const store = openFileStore(settings.fileStore);
  const vault = new EncryptedFileVault(
    store,
    new MasterKeyring([settings.masterKey, ...(settings.previousMasterKeys ?? [])]),
  );
  const signer = new TokenSigner(settings.masterKey);
  return capability({
    name: 'evidence',
    storage: evidenceStorage,
    declares: {
      scopes: {
        'evidence:read': ['admin', 'manager', 'assessor', 'moderator', 'facilitator', 'viewer', 'integration'],
        'evidence:write': ['admin', 'manager', 'assessor', 'facilitator', 'integration'],
        'evidence:review': ['admin', 'manager', 'assessor'],
        'evidence:delete': ['admin', 'manager'],
      },
      // Evidence, upload tickets, download bundles.
      ids: ['evd', 'upl', 'bdl'],
      events: evidenceEvents,
      // Learners hear of reviews, assessors of new evidence (the `triggers` hook); its records' export type and
      // import kind; a learner at the portal reads their evidence and uploads more.
      offers: {
        triggers: evidenceTriggers,
        exportTypes: [evidenceExport],
        importKinds: [evidenceImport],
        learnerScopes: ['evidence:read', 'evidence:write'],
      },
    },
    useCases: (
      p: Ports<
        EvidenceRepos & LearnerRepos & TrainingRepos & TenantRepos & PlatformRepos & Pick<WebhookRepos, 'tenantAlerts'>
      >,
    ): { evidence: EvidenceUseCases } => {
      const ports = { ...p, files: vault, signer, settings: { publicUrl: settings.publicUrl } };
      return { evidence: evidenceUseCases(ports) };
    },
    routes: evidenceRoutes,
    pageDeps: (u) => ({ evidence: u.evidence }),
    commands: evidenceCommands,
    dashboard: {
      nav: [
        { href: '/dashboard/evidence', label: 'Evidence', order: 40, scope: 'evidence:read' },
        { href: '/dashboard/usage', label: 'Usage', order: 130, scope: 'usage:read' },
      ],
      pages: [evidencePages, evidenceSettingsPages, evidenceRecordPages, usagePages],
      sections: {
        learnerRecord: [learnerEvidence],
        learnerRecordDone: [evidenceUploaded],
        overviewLanding: [assessorQueue],
        overviewTiles: [evidenceTiles],
        overviewProgress: [evidenceBacklog],
        enrolmentActivity: [evidenceActivity],
        settingsLimits: [evidenceStorageLimit],
        settings: [evidenceRetention],
        enrolmentRecord: [enrolmentEvidence],
        enrolmentRecordIds: [evidenceIds],
      },
    },
    // The learner's evidence and its upload forms under each module of the portal's home, and the uploads.
    portal: {
      pages: [evidencePortalPages],
      sections: { homeModule: [portalModuleEvidence], homeNotice: [portalEvidenceUploaded] },
    },
    // Exports and imports write to the same store: one sweep covers what any of them left half-written.
    hooks: (u) => ({
      rewrap: async () => {
        const files = await u.evidence.rewrapFiles.execute();
        return [{ key: 'files', count: files, said: `re-wrapped ${files.rewrapped} of ${files.files} stored files` }];
      },
    }),
    retention: (p) => [
      {
        kind: 'temporaryFiles',
        keepMs: HOUR,
        prune: (before: Date, limit: number) => store.removeAbandoned(before, limit),
      },
      ...uploadKeyRetention(p),
    ],
    reactions: () => [onLearnerErased(ERASE_LEARNER_EVIDENCE)],
    jobs: (u) => [
      {
        ...PURGE_DELETED_EVIDENCE,
        parse: () => ({}),
        run: async () => void (await u.evidence.purgeDeleted.execute()),
        recurring: { next: (after: Date) => new Date(Math.floor(after.getTime() / HOUR) * HOUR + HOUR), payload: {} },
      },
      {
        ...PURGE_RETAINED_EVIDENCE,
        parse: () => ({}),
        run: async () => void (await u.evidence.purgeRetained.execute()),
        recurring: {
          next: (after: Date) => new Date(Math.floor(after.getTime() / DAY) * DAY + DAY + 2 * HOUR),
          payload: {},
        },
      },
      {
        ...SNAPSHOT_STORAGE_USE,
        parse: () => ({}),
        run: async () => void (await u.evidence.usage.snapshotUsage()),
        // Every day at 00:05 UTC: the day's first snapshot (the dashboard adds today's live figure on view).
        recurring: {
          next: (after: Date) => new Date(Math.floor(after.getTime() / DAY) * DAY + DAY + 5 * 60_000),
          payload: {},
        },
      },
      erasureJob(ERASE_LEARNER_EVIDENCE, (p) => u.evidence.eraseLearner.execute(p.tenantId, p.learnerId)),
    ],
  });
}
