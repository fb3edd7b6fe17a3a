import type { EnrolmentStatus, TrainingRepos } from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import type { CoreDeps } from '../common/ports.js';

/** A programme's enrolments by status. */
export interface ProgrammeStatusCounts {
  programmeId: string;
  code: string;
  name: string;
  counts: Partial<Record<EnrolmentStatus, number>>;
}

/**
 * How many enrolments each programme has in each status, in two reads whatever the tenant's size (the dashboard's
 * completion chart); programmes without enrolments are left out.
 */
export class EnrolmentCounts {
  constructor(private readonly deps: Pick<CoreDeps<TrainingRepos>, 'repos'>) {}

  async execute(actor: Actor): Promise<ProgrammeStatusCounts[]> {
    const rows = await this.deps.repos.enrolments.statusCounts(actor.tenantId);
    const ids = [...new Set(rows.map((r) => r.programmeId))];
    const programmes = ids.length ? await this.deps.repos.programmes.findByIds(actor.tenantId, ids) : [];
    const byId = new Map(programmes.map((p) => [p.id, { programmeId: p.id, code: p.code, name: p.name, counts: {} }]));
    for (const r of rows) {
      const p: ProgrammeStatusCounts | undefined = byId.get(r.programmeId);
      if (p) p.counts[r.status] = r.count;
    }
    return [...byId.values()].sort((a, b) => (a.code < b.code ? -1 : 1));
  }
}
