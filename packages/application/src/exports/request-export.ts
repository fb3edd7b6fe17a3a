import { DomainError, newId } from '@fundi/domain';
import type { ExportSnapshot } from '@fundi/domain/exports';
import type { Actor } from '../common/actor.js';
import { enqueueJob } from '../jobs/job-definition.js';
import { recordChange } from '../common/record-change.js';
import type { ExportPorts } from './export-ports.js';
import { exportView, type ExportView } from './export-view.js';
import { checkRequest, requestable, type ExportRequest } from './export-request.js';
import { RUN_EXPORT, type RunExport } from './export-jobs.js';

/** Queues an export; the worker writes it (202 with the queued record). `origin`: see `RUN_EXPORT`. */
export class RequestExport {
  constructor(private readonly d: ExportPorts) {}

  async execute(actor: Actor, req: ExportRequest, origin?: string): Promise<ExportView> {
    // Some records are only for those who may read them (the audit trail: docs/api.md, "Audit trail").
    const scope = requestable(this.d.types, req.type)?.scope;
    if (scope && !actor.scopes.includes(scope))
      throw DomainError.forbidden(`An ${req.type} export needs the ${scope} scope`);
    const { format, fields, filters } = await checkRequest(this.d, actor.tenantId, req);
    const now = this.d.clock.now();
    const e: ExportSnapshot = {
      id: newId('exp'),
      tenantId: actor.tenantId,
      type: req.type,
      format,
      status: 'queued',
      filters,
      fields,
      rowCount: null,
      processedRows: null,
      totalRows: null,
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
}
