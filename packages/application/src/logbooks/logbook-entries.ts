import { DomainError, newId, type Page, type PageRequest } from '@fundi/domain';
import { LogbookEntry, type LogbookFilter, type LogbookInput, type LogbookEntrySnapshot } from '@fundi/domain/logbooks';
import { locateEnrolment } from '../assessments/locate-enrolment.js';
import type { Actor } from '../common/actor.js';
import { recordChange } from '../common/record-change.js';
import type { LogbookDeps } from './logbook-deps.js';
import {
  submitEntries,
  submitOpenEntries,
  type LogbookSubmitted,
  type OpenEntriesFilter,
} from './logbook-submissions.js';
import { logbookView, type LogbookEntryView } from './logbook-view.js';

const notFound = (id: string) => DomainError.notFound('logbook entry', id);

/**
 * Logbook entries (docs/api.md, "Logbooks"): recorded by staff for a learner or by the learner in the portal, for a
 * workplace module of an open enrolment; edited until signed; submitted for the supervisor's sign-off.
 */
export class LogbookEntries {
  constructor(private readonly d: LogbookDeps) {}

  async create(actor: Actor, input: LogbookInput): Promise<LogbookEntryView> {
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

  async get(actor: Actor, id: string): Promise<LogbookEntryView> {
    return logbookView(await this.find(actor.tenantId, id));
  }

  async list(actor: Actor, filter: LogbookFilter, page: PageRequest): Promise<Page<LogbookEntryView>> {
    const p = await this.d.repos.logbookEntries.list(actor.tenantId, filter, page);
    return { ...p, items: p.items.map(logbookView) };
  }

  async update(actor: Actor, id: string, input: LogbookInput): Promise<LogbookEntryView> {
    const now = this.d.clock.now();
    return this.d.uow.run(async (tx) => {
      const cur = await tx.logbookEntries.findById(actor.tenantId, id);
      if (!cur) throw notFound(id);
      const next = LogbookEntry.update(cur, input, now);
      await tx.logbookEntries.update(next);
      await recordChange(tx, actor, now, {
        action: 'logbook.updated',
        resourceType: 'logbook_entry',
        resourceId: id,
        learnerId: cur.learnerId,
        details: { fields: Object.keys(input) },
      });
      return logbookView(next);
    });
  }

  async remove(actor: Actor, id: string): Promise<void> {
    const now = this.d.clock.now();
    await this.d.uow.run(async (tx) => {
      const cur = await tx.logbookEntries.findById(actor.tenantId, id);
      if (!cur) throw notFound(id);
      LogbookEntry.assertDeletable(cur);
      await tx.logbookEntries.delete(actor.tenantId, id);
      await recordChange(tx, actor, now, {
        action: 'logbook.deleted',
        resourceType: 'logbook_entry',
        resourceId: id,
        learnerId: cur.learnerId,
      });
    });
  }

  /** Sends the entry for sign-off alone: a submission of one (`submitMany`). */
  async submit(actor: Actor, id: string): Promise<LogbookEntryView> {
    return this.d.uow.run(async (tx) => {
      if (!(await tx.logbookEntries.findById(actor.tenantId, id))) throw notFound(id);
      return (await submitEntries(this.d, tx, actor, [id])).data[0]!;
    });
  }

  /**
   * Sends several entries of one learner for sign-off together (all or none): one link per supervisor address, the
   * `logbook.submitted` event per entry (docs/api.md, "Logbooks").
   */
  async submitMany(actor: Actor, ids: unknown): Promise<LogbookSubmitted> {
    return this.d.uow.run((tx) => submitEntries(this.d, tx, actor, ids));
  }

  /**
   * Sends every unsigned entry (draft or queried) of the learner that the filter keeps, any number, all or none:
   * groups of at most 50 per supervisor, each its own sign-off request (the learner portal's buttons; docs/api.md,
   * "Logbooks"). Not found when there is none.
   */
  async submitOpen(actor: Actor, learnerId: string, filter: OpenEntriesFilter): Promise<LogbookSubmitted> {
    return this.d.uow.run((tx) => submitOpenEntries(this.d, tx, actor, learnerId, filter));
  }

  /** Every entry of the learner, in creation order (the learner portal's logbook page). */
  async forLearner(actor: Actor, learnerId: string): Promise<LogbookEntryView[]> {
    return (await this.d.repos.logbookEntries.listForLearner(actor.tenantId, learnerId)).map(logbookView);
  }

  private async find(tenantId: string, id: string): Promise<LogbookEntrySnapshot> {
    const e = await this.d.repos.logbookEntries.findById(tenantId, id);
    if (!e) throw notFound(id);
    return e;
  }
}
