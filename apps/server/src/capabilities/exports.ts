import { TokenSigner, openFileStore, type FileStoreChoice } from '@fundi/adapters';
import { archiverZip, exportStorage } from '@fundi/adapters/exports';
import { EncryptedFileVault, MasterKeyring, systemActorsOf, type Ports } from '@fundi/application';
import { erasureJob, onLearnerErased } from '@fundi/application/learners';
import {
  ERASE_EXPORT_COPIES,
  exportTypesOf,
  exportUseCases,
  OWN_EXPORT_TYPES,
  PURGE_EXPORTS,
  PurgeExportsOfErasedLearner,
  exportTriggers,
  RUN_EXPORT,
  type RunExport,
} from '@fundi/application/exports';
import type { PlatformRepos, TenantRepos } from '@fundi/domain';
import type { AuditRepos } from '@fundi/domain/audit';
import type { LearnerRepos } from '@fundi/domain/learners';
import type { TrainingRepos } from '@fundi/domain/training';
import type { ExportRepos } from '@fundi/domain/exports';
import {
  exportEvents,
  exportRoutes,
  bulkExport,
  exportPages,
  readinessPages,
  readinessSection,
  regulatorPanel,
  regulatorSettingsPages,
} from '@fundi/http/exports';
import { capability } from './capability.js';
import { exportCommands } from './export-commands.js';

export interface ExportSettings {
  fileStore: FileStoreChoice;
  masterKey: Buffer;
  publicUrl: string;
  /** Days an export's file is kept (default 7). */
  retentionDays?: number;
}

const HOUR = 3_600_000;

/**
 * Exports: CSV, ZIP and regulator files written by the worker into the encrypted file store, signed download
 * URLs, and an hourly purge of files past their retention.
 */
export function exports(settings: ExportSettings) {
  const vault = new EncryptedFileVault(openFileStore(settings.fileStore), new MasterKeyring([settings.masterKey]));
  const signer = new TokenSigner(settings.masterKey);
  return capability({
    name: 'exports',
    storage: exportStorage,
    declares: {
      scopes: {
        'exports:read': ['admin', 'manager', 'assessor', 'viewer', 'integration'],
        'exports:write': ['admin', 'manager', 'integration'],
      },
      ids: ['exp'],
      events: exportEvents,
      // Admins, and whoever asked, hear that an export is ready (the `triggers` hook); its own files (the full
      // ZIP, the regulator files) are offered where the exports stand in the capability list.
      offers: { triggers: exportTriggers, exportTypes: OWN_EXPORT_TYPES },
    },
    useCases: (p: Ports<ExportRepos & LearnerRepos & TrainingRepos & TenantRepos & PlatformRepos & AuditRepos>) => {
      // Every capability's offered types, in the list's order: each reads its own records.
      const types = exportTypesOf(p.hooks.exportTypes);
      return {
        exports: exportUseCases({
          ...p,
          files: vault,
          signer,
          zip: archiverZip,
          settings: { publicUrl: settings.publicUrl, retentionDays: settings.retentionDays ?? 7 },
          types,
          system: systemActorsOf(p.hooks.systemActor),
        }),
        exportTypes: types,
        purgeErasedLearnerExports: new PurgeExportsOfErasedLearner({ ...p, files: vault }),
      };
    },
    routes: exportRoutes,
    pageDeps: (u) => ({ exports: u.exports, exportTypes: u.exportTypes }),
    commands: exportCommands,
    dashboard: {
      nav: [{ href: '/dashboard/exports', label: 'Exports', order: 80, scope: 'exports:read' }],
      pages: [exportPages, readinessPages, regulatorSettingsPages],
      sections: { overview: [readinessSection], settings: [regulatorPanel], learnerBulk: [bulkExport] },
    },
    reactions: () => [onLearnerErased(ERASE_EXPORT_COPIES)],
    jobs: (u) => [
      erasureJob(ERASE_EXPORT_COPIES, (p) => u.purgeErasedLearnerExports.execute(p)),
      {
        ...RUN_EXPORT,
        concurrency: 2,
        parse: (v: unknown) => {
          const p = (v ?? {}) as Record<string, unknown>;
          if (typeof p.tenantId !== 'string' || typeof p.exportId !== 'string')
            throw new Error('expected {tenantId, exportId, origin?}');
          // Jobs queued before the origin was carried have none: their URL stays relative without a public URL.
          const origin = typeof p.origin === 'string' ? p.origin : undefined;
          return { tenantId: p.tenantId, exportId: p.exportId, ...(origin ? { origin } : {}) };
        },
        run: (p: RunExport, ctx) => u.exports.write.execute(p.tenantId, p.exportId, ctx, p.origin),
      },
      {
        ...PURGE_EXPORTS,
        parse: () => ({}),
        run: async () => void (await u.exports.purgeExpired.execute()),
        recurring: { next: (after: Date) => new Date(Math.floor(after.getTime() / HOUR) * HOUR + HOUR), payload: {} },
      },
    ],
  });
}
