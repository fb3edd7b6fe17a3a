import type { Actor } from '../common/actor.js';
import type { ExportPorts } from './export-ports.js';
import type { DryRunReport, ExportView } from './export-view.js';
import { checkRequest } from './export-request.js';
import { ReadinessCollector, qcto01Chunks, qcto02Chunks } from './export-writers.js';
import { regulatorSettingsOf } from './export-links.js';
import type { RequestExport } from './request-export.js';

/** A regulator file: a dry run answers only the readiness report; a real run is queued like any export. */
export class RequestRegulatorFile {
  constructor(
    private readonly d: ExportPorts,
    private readonly requestExport: RequestExport,
  ) {}

  async execute(
    actor: Actor,
    type: 'qcto01' | 'qcto02',
    body: { dryRun?: boolean; programmeId?: string; from?: string; to?: string },
    origin?: string,
  ): Promise<{ dryRun: true; report: DryRunReport } | { dryRun: false; export: ExportView }> {
    const { dryRun, ...filters } = body;
    if (!dryRun) return { dryRun: false, export: await this.requestExport.execute(actor, { type, filters }, origin) };
    const checked = await checkRequest(this.d.repos, actor.tenantId, { type, filters });
    const settings = await regulatorSettingsOf(this.d.repos, actor.tenantId);
    const collector = new ReadinessCollector();
    const today = this.d.clock.now().toISOString().slice(0, 10);
    const gen = type === 'qcto01' ? qcto01Chunks : qcto02Chunks;
    for await (const _ of gen(this.d.repos, actor.tenantId, checked.filters, settings, today, collector));
    return { dryRun: true, report: { type, dryRun: true, ...collector.report() } };
  }
}
