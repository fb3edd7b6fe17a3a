import type { AuditRepos } from '@fundi/domain/audit';
import type { EnrolmentStatus, TrainingRepos } from '@fundi/domain/training';
import type { Actor } from '../common/actor.js';
import type { CoreDeps } from '../common/ports.js';
import { KeptUntilChange } from '../common/kept-until-change.js';

/** A programme's enrolments by status. */
export interface ProgrammeStatusCounts {
  programmeId: string;
  code: string;
  name: string;
  counts: Partial<Record<EnrolmentStatus, number>>;
}

/**
 * How many enrolments each programme has in each status, in two reads whatever the tenant's size (the dashboard's
 * completion chart); programmes without enrolments are left out. Kept until the tenant's data changes
 * (`KeptUntilChange`): the grouped count reads every enrolment of the tenant.
 */
export class EnrolmentCounts {
  private readonly kept: KeptUntilChange<ProgrammeStatusCounts[]>;

  constructor(private readonly deps: Pick<CoreDeps<TrainingRepos & AuditRepos>, 'repos'>) {
    this.kept = new KeptUntilChange(deps.repos.auditTrail);
  }

  execute(actor: Actor): Promise<ProgrammeStatusCounts[]> {
    return this.kept.get(actor.tenantId, 'status-counts', () => this.count(actor.tenantId));
  }

  private async count(tenantId: string): Promise<ProgrammeStatusCounts[]> {
    const rows = await this.deps.repos.enrolments.statusCounts(tenantId);
    const ids = [...new Set(rows.map((r) => r.programmeId))];
    const programmes = ids.length ? await this.deps.repos.programmes.findByIds(tenantId, ids) : [];
    const byId = new Map(programmes.map((p) => [p.id, { programmeId: p.id, code: p.code, name: p.name, counts: {} }]));
    for (const r of rows) {
      const p: ProgrammeStatusCounts | undefined = byId.get(r.programmeId);
      if (p) p.counts[r.status] = r.count;
    }
    return [...byId.values()].sort((a, b) => (a.code < b.code ? -1 : 1));
  }
}
