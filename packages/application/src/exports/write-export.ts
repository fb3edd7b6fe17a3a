import { isStorageUnavailable } from '@fundi/domain';
import type { ExportSnapshot } from '@fundi/domain/exports';
import { systemActor } from '../common/actor.js';
import type { JobContext } from '../jobs/job-definition.js';
import { recordChange } from '../common/record-change.js';
import type { ExportPorts } from './export-ports.js';
import { exportFile } from './export-files.js';
import { RUN_EXPORT } from './export-jobs.js';
import { requestable } from './export-request.js';
import type { ResolvedFilters } from './export-type.js';

/** How often a running export records how many rows it has written. */
const PROGRESS_EVERY_MS = 1000;
import { regulatorSettingsOf, signedDownload } from './export-links.js';

/**
 * The worker's part of an export: writes the file, then marks the export ready with its events (once, also when
 * redone). The last attempt that fails marks it failed; earlier ones, an abort or a storage outage throw, so the
 * job runs again.
 */
export class WriteExport {
  constructor(private readonly d: ExportPorts) {}

  async execute(tenantId: string, id: string, ctx: Pick<JobContext, 'attempt' | 'signal'>, origin?: string) {
    const e = await this.d.repos.exports.findById(tenantId, id);
    if (!e || e.status === 'ready' || e.status === 'failed') return;
    const csv = requestable(this.d.types, e.type)?.csv;
    const total = (await csv?.total?.(this.d.repos, tenantId, e.filters as ResolvedFilters)) ?? null;
    const started = { ...e, status: 'processing' as const, processedRows: 0, totalRows: total };
    if (e.status === 'queued') await this.d.uow.run((tx) => tx.exports.update(started));
    else await this.d.repos.exports.recordProgress(tenantId, id, 0, total);
    const today = this.d.clock.now().toISOString().slice(0, 10);
    const key = `t/${tenantId}/exports/${id}`;
    try {
      const settings = await regulatorSettingsOf(this.d.repos, tenantId);
      const file = exportFile(this.d, started, settings, today);
      ctx.signal.addEventListener('abort', () => file.stream.destroy(new Error('aborted')), { once: true });
      // How far it has got, about every second, for the progress bar (docs/dashboard.md, "Pages").
      let recorded = 0;
      const progress = setInterval(() => {
        const rows = file.rowCount();
        if (rows === recorded) return;
        recorded = rows;
        this.d.repos.exports.recordProgress(tenantId, id, rows, total).catch(() => {});
      }, PROGRESS_EVERY_MS);
      progress.unref();
      const stored = await this.d.files
        .store(key, file.stream, { as: { contentType: file.contentType, kind: file.kind } })
        .finally(() => clearInterval(progress));
      await this.finish(started, origin, {
        status: 'ready',
        rowCount: file.rowCount(),
        processedRows: file.rowCount(),
        readiness: file.readiness(),
        fileName: file.fileName,
        size: stored.size,
        contentType: file.contentType,
        storageKey: key,
      });
    } catch (err) {
      if (ctx.signal.aborted || ctx.attempt < RUN_EXPORT.maxAttempts! || isStorageUnavailable(err)) throw err;
      await this.d.files.remove(key).catch(() => {});
      await this.finish(started, origin, { status: 'failed', error: err instanceof Error ? err.message : String(err) });
    }
  }

  private async finish(e: ExportSnapshot, origin: string | undefined, change: Partial<ExportSnapshot>): Promise<void> {
    const now = this.d.clock.now();
    const done: ExportSnapshot = {
      ...e,
      ...change,
      completedAt: now.toISOString(),
      expiresAt:
        change.status === 'ready'
          ? new Date(now.getTime() + this.d.settings.retentionDays * 86_400_000).toISOString()
          : null,
    };
    await this.d.uow.run(async (tx) => {
      const current = await tx.exports.findById(e.tenantId, e.id);
      // Another run finished it first (a redone job after a lost lease): nothing is recorded twice.
      if (!current || current.status === 'ready' || current.status === 'failed') return;
      await tx.exports.update(done);
      const data =
        done.status === 'ready'
          ? {
              exportId: done.id,
              type: done.type,
              format: done.format,
              fileName: done.fileName,
              rowCount: done.rowCount,
              size: done.size,
              ...signedDownload(this.d, done, now, origin),
            }
          : null;
      await recordChange(tx, systemActor(e.tenantId), now, {
        action: done.status === 'ready' ? 'export.ready' : 'export.failed',
        resourceType: 'export',
        resourceId: e.id,
        details: { rowCount: done.rowCount, size: done.size, error: done.error },
        events: data
          ? [
              { type: 'export.ready', data },
              { type: 'export.completed', data },
            ]
          : [],
      });
    });
  }
}
