import { DomainError } from '@fundi/domain';
import type { LogbookHours } from '@fundi/domain/logbooks';
import { Enrolment } from '@fundi/domain/training';
import type { Actor } from '../common/actor.js';
import type { LogbookDeps } from './logbook-deps.js';

/**
 * Hours per workplace module of a learner's open enrolments: logged (every entry), signed, required by the module,
 * and whether the signed hours reach the requirement (ready for assessment; completion rules do not change).
 */
export class GetLogbookProgress {
  constructor(private readonly d: LogbookDeps) {}

  async execute(actor: Actor, learnerId: string): Promise<LogbookHours[]> {
    if (!(await this.d.repos.learners.findById(actor.tenantId, learnerId)))
      throw DomainError.notFound('learner', learnerId);
    const [enrolments, entries] = await Promise.all([
      this.d.repos.enrolments.openForLearner(actor.tenantId, learnerId),
      this.d.repos.logbookEntries.listForLearner(actor.tenantId, learnerId),
    ]);
    const open = enrolments.filter((e) => Enrolment.isOpen(e));
    const programmes = await this.d.repos.programmes.findByIds(actor.tenantId, [
      ...new Set(open.map((e) => e.programmeId)),
    ]);
    const out = new Map<string, LogbookHours>();
    for (const p of programmes)
      for (const m of p.modules)
        if (m.kind === 'workplace' && !out.has(m.code))
          out.set(m.code, {
            moduleCode: m.code,
            logged: 0,
            signed: 0,
            required: m.requiredHours ?? null,
            ready: false,
          });
    for (const e of entries) {
      const h = out.get(e.moduleCode);
      if (!h) continue;
      h.logged += e.hours;
      if (e.status === 'signed') h.signed += e.hours;
    }
    for (const h of out.values()) h.ready = h.required !== null && h.signed >= h.required;
    return [...out.values()];
  }
}
