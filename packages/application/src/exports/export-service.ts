import {
  DomainError,
  isStorageUnavailable,
  emptyRegulatorSettings,
  newId,
  parseRegulatorSettings,
  type ExportSnapshot,
  type RegulatorSettings,
} from '@fundi/domain';
import { systemActor, type Actor } from '../common/actor.js';
import { enqueueJob, jobType, type JobContext } from '../jobs/job-definition.js';
import { recordChange } from '../common/record-change.js';
import type { ExportPorts } from './export-ports.js';
import { exportView, type DryRunReport, type ExportDownload, type ExportView } from './export-view.js';
import { checkRequest, type ExportRequest } from './export-request.js';
import { exportFile } from './export-files.js';
import { ReadinessCollector, qcto01Chunks, qcto02Chunks } from './export-writers.js';

/**
 * The job that writes an export's file. `origin` is `scheme://host` of the request that queued it: the base of
 * the download URL in `export.ready` when no public URL is configured (the worker has no request of its own).
 */
export const RUN_EXPORT = jobType<RunExport>('exports.run', 'long', { maxAttempts: 3, priority: 'interactive' });
export type RunExport = { tenantId: string; exportId: string; origin?: string };
/** The job that purges expired export files (recurring, hourly). */
export const PURGE_EXPORTS = jobType<Record<string, never>>('exports.purge_expired', 'long');

const SIGNED_URL_SECONDS = 3600;
const DOWNLOAD = 'export-download';

const invalidUrl = () =>
  new DomainError(
    'forbidden',
    'signed_url_invalid',
    'The signed URL is not valid: it was altered or is not for this tenant',
  );
const expiredUrl = () =>
  new DomainError('forbidden', 'signed_url_expired', 'The signed URL has expired: ask for a new one');

/** Exports and regulator files (docs/api.md, "Exports" and "Regulator files"). */
export class ExportService {
  constructor(private readonly d: ExportPorts) {}

  private now(): Date {
    return this.d.clock.now();
  }

  /** Queues an export; the worker writes it (202 with the queued record). `origin`: see `RUN_EXPORT`. */
  async request(actor: Actor, req: ExportRequest, origin?: string): Promise<ExportView> {
    // The audit trail is for those who may read it (docs/api.md, "Audit trail").
    if (req.type === 'audit' && !actor.scopes.includes('audit:read'))
      throw DomainError.forbidden('An audit export needs the audit:read scope');
    const { format, fields, filters } = await checkRequest(this.d.repos, actor.tenantId, req);
    const now = this.now();
    const e: ExportSnapshot = {
      id: newId('exp'),
      tenantId: actor.tenantId,
      type: req.type,
      format,
      status: 'queued',
      filters,
      fields,
      rowCount: null,
      fileName: null,
      size: null,
      contentType: null,
      storageKey: null,
      readiness: null,
      error: null,
      createdBy: actor.id,
      createdAt: now.toISOString(),
      completedAt: null,
      expiresAt: null,
      purgedAt: null,
      purgeReason: null,
    };
    await this.d.uow.run(async (tx) => {
      await tx.exports.insert(e);
      const job: RunExport = { tenantId: e.tenantId, exportId: e.id, ...(origin ? { origin } : {}) };
      await enqueueJob(tx.jobs, RUN_EXPORT, job, { now, key: `export:${e.id}` });
      await recordChange(tx, actor, now, {
        action: 'export.requested',
        resourceType: 'export',
        resourceId: e.id,
        details: { type: e.type, filters: e.filters, fields: e.fields },
      });
    });
    return exportView(e);
  }

  /** A regulator file: a dry run answers only the readiness report; a real run is queued like any export. */
  async requestRegulator(
    actor: Actor,
    type: 'qcto01' | 'qcto02',
    body: { dryRun?: boolean; programmeId?: string; from?: string; to?: string },
    origin?: string,
  ): Promise<{ dryRun: true; report: DryRunReport } | { dryRun: false; export: ExportView }> {
    const { dryRun, ...filters } = body;
    if (!dryRun) return { dryRun: false, export: await this.request(actor, { type, filters }, origin) };
    const checked = await checkRequest(this.d.repos, actor.tenantId, { type, filters });
    const settings = await this.regulatorSettings(actor.tenantId);
    const collector = new ReadinessCollector();
    const today = this.now().toISOString().slice(0, 10);
    const gen = type === 'qcto01' ? qcto01Chunks : qcto02Chunks;
    for await (const _ of gen(this.d.repos, actor.tenantId, checked.filters, settings, today, collector));
    return { dryRun: true, report: { type, dryRun: true, ...collector.report() } };
  }

  async get(actor: Actor, id: string): Promise<ExportView> {
    const e = await this.d.repos.exports.findById(actor.tenantId, id);
    if (!e) throw DomainError.notFound('export', id);
    return exportView(e);
  }

  async list(actor: Actor, page: Parameters<ExportPorts['repos']['exports']['list']>[1]) {
    const p = await this.d.repos.exports.list(actor.tenantId, page);
    return { ...p, items: p.items.map(exportView) };
  }

  /** The worker's part: writes the file, then marks the export ready with its events (once, also when redone). */
  async run(tenantId: string, id: string, ctx: Pick<JobContext, 'attempt' | 'signal'>, origin?: string): Promise<void> {
    const e = await this.d.repos.exports.findById(tenantId, id);
    if (!e || e.status === 'ready' || e.status === 'failed') return;
    const started = { ...e, status: 'processing' as const };
    if (e.status === 'queued') await this.d.uow.run((tx) => tx.exports.update(started));
    const today = this.now().toISOString().slice(0, 10);
    const key = `t/${tenantId}/exports/${id}`;
    try {
      const settings = await this.regulatorSettings(tenantId);
      const file = exportFile(this.d, started, settings, today);
      ctx.signal.addEventListener('abort', () => file.stream.destroy(new Error('aborted')), { once: true });
      const stored = await this.d.files.store(key, file.stream, {
        as: { contentType: file.contentType, kind: file.kind },
      });
      await this.finish(started, origin, {
        status: 'ready',
        rowCount: file.rowCount(),
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
    const now = this.now();
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
              ...this.signed(done, now, origin),
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

  /** A signed URL under the public URL, else `origin` (a webhook receiver needs it absolute); else relative. */
  private signed(e: ExportSnapshot, now: Date, origin?: string): { downloadUrl: string; expiresAt: string } {
    const expiresAt = new Date(now.getTime() + SIGNED_URL_SECONDS * 1000);
    const token = this.d.signer.sign(`${e.tenantId}|${e.id}|${expiresAt.getTime()}`, DOWNLOAD);
    const base = (this.d.settings.publicUrl || origin || '').replace(/\/+$/, '');
    return {
      downloadUrl: `${base}/api/v1/files/exports/${token}`,
      expiresAt: expiresAt.toISOString(),
    };
  }

  /** A signed URL (3600 s) to a ready export's file; issuing it is audited. 409 while not ready or once purged. */
  async downloadUrl(actor: Actor, id: string): Promise<ExportDownload> {
    const e = await this.d.repos.exports.findById(actor.tenantId, id);
    if (!e) throw DomainError.notFound('export', id);
    this.assertDownloadable(e);
    const now = this.now();
    const { downloadUrl, expiresAt } = this.signed(e, now);
    await this.d.uow.run((tx) =>
      recordChange(tx, actor, now, { action: 'export.download_url_issued', resourceType: 'export', resourceId: id }),
    );
    return { url: downloadUrl, expiresAt, filename: e.fileName!, contentType: e.contentType!, size: e.size! };
  }

  private assertDownloadable(e: ExportSnapshot): void {
    if (e.purgedAt) throw DomainError.conflict('export_purged', 'The export file was purged; request a new export');
    if (e.status !== 'ready')
      throw DomainError.conflict('export_not_ready', `The export is ${e.status}; its file is not available`);
  }

  /** Opens a signed download URL: checks signature, tenant and expiry, audits the download. */
  async openDownload(token: string, tenantSlug: string | null) {
    const payload = this.d.signer.verify(token, DOWNLOAD);
    if (!payload) throw invalidUrl();
    const [tenantId, id, exp] = payload.split('|');
    if (!tenantId || !id || !exp) throw invalidUrl();
    if (tenantSlug !== null && (await this.d.repos.tenants.findById(tenantId))?.slug !== tenantSlug) throw invalidUrl();
    const now = this.now();
    if (now.getTime() > Number(exp)) throw expiredUrl();
    const e = await this.d.repos.exports.findById(tenantId, id);
    if (!e) throw DomainError.notFound('export', id);
    this.assertDownloadable(e);
    await this.d.uow.run((tx) =>
      recordChange(tx, { ...systemActor(tenantId), id: 'signed-url' }, now, {
        action: 'export.downloaded',
        resourceType: 'export',
        resourceId: id,
      }),
    );
    return {
      contentType: e.contentType!,
      size: e.size!,
      filename: e.fileName!,
      // A strong validator of the bytes, as `size` is: the file is written before its record is marked ready, a run
      // that finds the export ready writes nothing, and the record's completion time names the run that wrote it.
      etag: `${e.id}-${Date.parse(e.completedAt!).toString(36)}`,
      open: (range?: { start: number; end: number }) => this.d.files.open(e.storageKey!, range),
    };
  }

  /** Removes the files of exports past their retention; the records stay with `purgedAt`. */
  async purgeExpired(): Promise<number> {
    const now = this.now();
    let purged = 0;
    for (;;) {
      const due = await this.d.repos.exports.expired(now.toISOString(), 100);
      if (!due.length) return purged;
      for (const e of due) {
        if (e.storageKey) await this.d.files.remove(e.storageKey);
        await this.d.uow.run(async (tx) => {
          await tx.exports.update({ ...e, purgedAt: now.toISOString(), purgeReason: 'expired' });
          await recordChange(tx, systemActor(e.tenantId), now, {
            action: 'export.purged',
            resourceType: 'export',
            resourceId: e.id,
            details: { reason: 'expired' },
          });
        });
        purged++;
      }
    }
  }

  private async regulatorSettings(tenantId: string): Promise<RegulatorSettings> {
    return { ...emptyRegulatorSettings(), ...((await this.d.repos.regulatorSettings.get(tenantId)) ?? {}) };
  }

  /** Admin only (docs/api.md, "Regulator settings"). */
  async getSettings(actor: Actor): Promise<RegulatorSettings> {
    if (actor.role !== 'admin') throw DomainError.forbidden('Only an admin key may read the regulator settings');
    return this.regulatorSettings(actor.tenantId);
  }

  async putSettings(actor: Actor, input: Record<string, unknown>): Promise<RegulatorSettings> {
    if (actor.role !== 'admin') throw DomainError.forbidden('Only an admin key may change the regulator settings');
    const s = parseRegulatorSettings(input);
    const now = this.now();
    await this.d.uow.run(async (tx) => {
      await tx.regulatorSettings.put(actor.tenantId, s, now.toISOString());
      await recordChange(tx, actor, now, {
        action: 'regulator_settings.updated',
        resourceType: 'tenant',
        resourceId: actor.tenantId,
        details: { fields: Object.keys(s).filter((k) => s[k as keyof RegulatorSettings] !== null) },
      });
    });
    return s;
  }
}
