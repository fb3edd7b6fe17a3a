import { DomainError, type Page, type PageRequest } from '@fundi/domain';
import type { Actor } from '../common/actor.js';
import { statementBaseUrl } from './statement-base-url.js';
import type { StatementPorts } from './statement-ports.js';
import { statementView, type StatementView } from './statement-view.js';

/** `GET /learners/{id}/statements` (`listStatements`): the learner's statements, newest first; 404 for no learner. */
export class ListStatements {
  constructor(private readonly d: StatementPorts) {}

  async execute(actor: Actor, learnerId: string, page: PageRequest, origin?: string): Promise<Page<StatementView>> {
    const found = await this.d.repos.statements.listForLearner(actor.tenantId, learnerId, page);
    if (found.total === 0 && !(await this.d.repos.learners.findById(actor.tenantId, learnerId)))
      throw DomainError.notFound('learner', learnerId);
    const base = statementBaseUrl(this.d, origin);
    return { ...found, items: found.items.map((s) => statementView(s, base)) };
  }
}
