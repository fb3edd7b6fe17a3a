import { DomainError, newId } from '@fundi/domain';
import { LogbookEntry, type LogbookInput } from '@fundi/domain/logbooks';
import { locateEnrolment } from '../assessments/locate-enrolment.js';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import type { LogbookDeps } from './logbook-deps.js';
import { logbookView, type LogbookEntryView } from './logbook-view.js';

/**
 * `POST /logbook-entries` (`createLogbookEntry`), and the learner portal's form: an entry recorded by staff for a
 * learner or by the learner, for a workplace module of an open enrolment (docs/api.md, "Logbooks").
 */
export class CreateLogbookEntry {
  constructor(private readonly d: LogbookDeps) {}

  async execute(actor: Actor, input: LogbookInput): Promise<LogbookEntryView> {
    if (typeof input.learnerId !== 'string' || !input.learnerId) throw DomainError.invalid('learnerId', 'is required');
    if (typeof input.moduleCode !== 'string' || !input.moduleCode)
      throw DomainError.invalid('moduleCode', 'is required (a workplace module code)');
    const learner = await this.d.repos.learners.findById(actor.tenantId, input.learnerId);
    if (!learner) throw DomainError.invalid('learnerId', 'unknown learner', 'unknown_learner');
    const { enrolment, programme } = await locateEnrolment(
      this.d.repos,
      actor.tenantId,
      learner.id,
      input.moduleCode,
      typeof input.enrolmentId === 'string' ? input.enrolmentId : undefined,
    );
    const module = programme.modules.find((m) => m.code === input.moduleCode);
    if (module?.kind !== 'workplace')
      throw DomainError.invalid('moduleCode', 'must be a workplace module: logbooks record workplace hours');
    const now = this.d.clock.now();
    const e = LogbookEntry.create(input, {
      id: newId('lbe', now.getTime()),
      tenantId: actor.tenantId,
      learnerId: learner.id,
      enrolmentId: enrolment.id,
      moduleCode: module.code,
      actor: actor.id,
      now,
    });
    await this.d.uow.run(async (tx) => {
      await tx.logbookEntries.insert(e);
      await recordChange(tx, actor, now, {
        action: 'logbook.created',
        resourceType: 'logbook_entry',
        resourceId: e.id,
        learnerId: e.learnerId,
      });
    });
    return logbookView(e);
  }
}
